// Tests are TypeScript and the middy packages are ESM-only: one esbuild transform turns
// both into CommonJS for jest (tests/support/esbuild-transform.cjs).
const transform = { '\\.[cm]?[jt]s$': '<rootDir>/tests/support/esbuild-transform.cjs' };

module.exports = {
  testEnvironment: 'node',
  // The middy packages export only an "import" condition; point jest at their entry files,
  // which the transform makes CommonJS.
  moduleNameMapper: { '^@middy/([a-z-]+)$': '<rootDir>/node_modules/@middy/$1/index.js' },
  transform,
  transformIgnorePatterns: ['/node_modules/(?!(@middy|jose|ulid)/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  testMatch: ['<rootDir>/tests/**/*.test.ts', '<rootDir>/lib/**/*.test.ts'],
  // The HTTP and load tests run after these, one at a time, on a DynamoDB Local of their own (jest.serial.cjs).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/tests/http/', '<rootDir>/tests/load/'],
  globalSetup: '<rootDir>/tests/support/global-setup.ts',
  globalTeardown: '<rootDir>/tests/support/global-teardown.ts',
  setupFiles: ['<rootDir>/tests/support/env.ts'],
  testTimeout: 60_000,
  maxWorkers: 2,
};
