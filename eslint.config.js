// ESLint: rules that catch real bugs (floating promises, unused values, loose equality, …) and
// the size limits of the architecture (files ~400 lines, functions ~60) in src/.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'results/', 'bench-results/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js', '*.ts', 'tools/*.js'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-constant-condition': ['error', { checkLoops: false }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      // Only knows the built-in Error types (a `throw new Error(...)` in a catch); see src/ below for ours.
      'preserve-caught-error': 'error',
    },
  },
  {
    // Tests read JSON bodies and plans as loosely typed data on purpose.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true }],
      // preserve-caught-error's check for our own error classes, thrown or returned from a catch.
      'no-restricted-syntax': [
        'error',
        {
          selector: "CatchClause > BlockStatement NewExpression[callee.name=/Error$/]:not(:has(Property[key.name='cause']))",
          message: 'an error made from a caught one keeps it: pass { cause } (see src/errors.ts)',
        },
      ],
    },
  },
  {
    // The solver core is pure: no I/O, no Node built-ins.
    files: ['src/solver/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*'], message: 'the solver core has no node: imports (src/threads/ runs it on workers)' }] },
      ],
    },
  },
);
