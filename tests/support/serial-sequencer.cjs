// The order of the serial run (jest.serial.cjs): the HTTP files first, then the race suite,
// the busy account's deletion last.
// The load test leaves 30,000 items' worth of stream records in its DynamoDB Local, which
// stays slow for every table it holds afterwards: in two full runs beside a CPU-bound
// process (2026-11-24) the HTTP file that ran right after it saw 40 of 50 registrations and
// then 43 of 50 post creations outlive their 10 s, where alone, under the same load, every
// one answered within 2.1 s. The load test drops its table at the end, and DynamoDB Local is
// still slow after it. jest's default order (slowest file first) put the load test first.
const Sequencer = require('@jest/test-sequencer').default;

const rank = (path) => (path.includes('/tests/http/') ? 0 : path.includes('account-delete-busy') ? 2 : 1);

class SerialSequencer extends Sequencer {
  sort(tests) {
    return [...tests].sort((a, b) => rank(a.path) - rank(b.path) || a.path.localeCompare(b.path));
  }
}

module.exports = SerialSequencer;
