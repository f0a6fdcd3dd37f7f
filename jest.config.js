/** Jest runs every suite against real PostgreSQL and a real Temporal server (see test/setup). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  setupFiles: ['<rootDir>/test/setup/temporal-runtime.ts'],
  testTimeout: 60_000,
  maxWorkers: 2,
  watchman: false,
};
