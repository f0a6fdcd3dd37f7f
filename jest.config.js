/** Jest runs every suite against real PostgreSQL and a real Temporal server (see test/setup). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The image test needs a built image and root: scripts/test-image.sh runs it with test/image/jest.config.js.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/image/'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  setupFiles: ['<rootDir>/test/setup/temporal-runtime.ts'],
  testTimeout: 60_000,
  maxWorkers: 2,
  watchman: false,
};
