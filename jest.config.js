/** @type {import('jest').Config} */
module.exports = {
  // jest's node environment, sharing supertest and express between a worker's test files.
  testEnvironment: '<rootDir>/test/setup/environment.cjs',
  // jest's runtime, keeping each module's transformed code for the worker's life (test/setup/runtime.cjs).
  runtime: '<rootDir>/test/setup/runtime.cjs',
  roots: ['<rootDir>/test', '<rootDir>/examples'],
  moduleNameMapper: {
    // Examples import the package by name, as its users do.
    '^split-sandbox$': '<rootDir>/src/index.ts',
    '^split-sandbox/testcontainers$': '<rootDir>/src/testcontainers/index.ts',
    // Loaded once per worker, not once per test file (test/setup/environment.cjs).
    '^supertest$': '<rootDir>/test/setup/shared/supertest.cjs',
    '^express$': '<rootDir>/test/setup/shared/express.cjs',
    '^path-to-regexp$': '<rootDir>/test/setup/shared/path-to-regexp.cjs',
    '^playwright-core$': '<rootDir>/test/setup/shared/playwright-core.cjs',
    // src/schemas/validator.ts's precompiled validators and checks: compiled once per run (test/setup/validators.ts).
    '^\\./generated/(\\w+(?:\\.check)?)\\.js$': '<rootDir>/node_modules/.cache/split-sandbox-validators/$1.js',
  },
  testMatch: ['**/*.test.ts'],
  // Transpiled file by file (tsconfig's isolatedModules) by esbuild, to what TypeScript's CommonJS
  // means (test/setup/transform.cjs says how); `npm run typecheck` checks the types.
  transform: { '^.+\\.ts$': '<rootDir>/test/setup/transform.cjs' },
  testTimeout: 20000,
  // jest's default is one worker fewer than the cores: one on a two-core machine.
  maxWorkers: '100%',
  // The files known to be slowest start first (test/setup/slow-files.json): a fresh clone has no
  // cache of durations to order by.
  testSequencer: '<rootDir>/test/setup/slow-first.cjs',
  // Also compiles the tests' schema checks (test/helpers/compiled-checks.ts) and writes the build's
  // image of a new database when it is missing (dist/fresh-database-*.db); each only when what it is
  // made from changed.
  globalSetup: '<rootDir>/test/setup/validators.ts',
  // Stops what the run's test files shared (the browser tests' Chromium) and removes the run's folder
  // (test/setup/run-folder.ts).
  globalTeardown: '<rootDir>/test/setup/run-folder.ts',
  // Every supertest answer is checked against the OpenAPI document.
  setupFilesAfterEnv: ['<rootDir>/test/setup/conformance.ts'],
  // The summary names what it skipped and why (each such suite's name says).
  reporters: ['default', '<rootDir>/test/setup/skipped-reporter.cjs'],
};
