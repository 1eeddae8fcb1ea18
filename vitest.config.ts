import { defineConfig } from 'vitest/config';

export default defineConfig(({ mode }) => ({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One real PostgreSQL for the run, started only when a selected test file calls freshDatabase().
    globalSetup: ['test/support/postgres-global-setup.ts'],
    // The JSON report lets .ci/run close with a plain "N passed, N failed" line; the smoke
    // (`npm run test:smoke`, mode "smoke") keeps its own beside the suite's.
    reporters: ['default', ['json', { outputFile: mode === 'smoke' ? 'results/vitest-smoke.json' : 'results/vitest-report.json' }]],
  },
}));
