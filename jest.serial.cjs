// The tests that need the machine to themselves, run by `npm test` after the others, one file
// at a time, in a jest run of their own with a DynamoDB Local of their own:
// - tests/http: `npm start` itself (DynamoDB Local, S3, serverless-offline bundling every
//   function, the stream), which beside the parallel suites' own bundling (the packaging and
//   bundle-size tests) could not answer within its 120 s on 2 cores;
// - tests/load: a busy account's deletion, whose 30,000 items and cleanup stream records make
//   DynamoDB Local's stream reads slow for every table it holds; and the race suite, whose
//   batches of 30 writes on a few items, beside the notifications test's likes on one post
//   and a CPU-bound process, stalled DynamoDB Local past every request's 10 s and the feed
//   suite's 5-second promise with them (a full run, 2026-11-24). It checks correctness under
//   its own load, which it now has to itself.
const base = require('./jest.config.cjs');

module.exports = {
  ...base,
  testMatch: ['<rootDir>/tests/http/**/*.test.ts', '<rootDir>/tests/load/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
  // The HTTP files before the load test, whose leftovers slow DynamoDB Local (tests/support/serial-sequencer.cjs).
  testSequencer: '<rootDir>/tests/support/serial-sequencer.cjs',
};
