import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One real PostgreSQL for the run, started only when a selected test file calls freshDatabase().
    globalSetup: ['test/support/postgres-global-setup.ts'],
    // The JSON report lets .ci/run close with a plain "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: 'results/vitest-report.json' }]],
  },
});
