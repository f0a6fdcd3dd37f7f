/**
 * The image test (scripts/test-image.sh): checks a built image's filesystem and runs its entrypoint in it. Apart
 * from the suite (jest.config.js leaves test/image out) because it needs the image built and root.
 */
module.exports = {
  rootDir: '../..',
  testEnvironment: 'node',
  roots: ['<rootDir>/test/image'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  testTimeout: 120_000,
  watchman: false,
};
