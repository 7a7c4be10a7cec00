// The load tests (tests/load): run by `npm test` after the others, in a jest run of their own
// with a DynamoDB Local of their own. A busy account's 30,000 items and the stream records of
// their cleanup make DynamoDB Local's stream reads slow for every table it holds, which starved
// the stream consumers of the test files running beside and after it.
const base = require('./jest.config.cjs');

module.exports = {
  ...base,
  testMatch: ['<rootDir>/tests/load/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
};
