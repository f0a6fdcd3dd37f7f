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
  // A hang guard, not a budget: tests wait on conditions (test/helpers/patience.ts), which end as soon as they hold,
  // so this only decides how long a real hang takes to fail. It is above the conditions' own ceiling, so a hang
  // fails with the wait's message.
  testTimeout: 15 * 60_000,
  maxWorkers: 2,
  // A worker runs suite after suite; one that holds more than this once a suite ends (what large inventories and the
  // attack-path suites leave for the collector) is replaced by a fresh one rather than left to run out of heap.
  workerIdleMemoryLimit: '1536MB',
  watchman: false,
};
