// Every log line carries the X-Ray trace id of the invocation it belongs to (Lambda sets
// _X_AMZN_TRACE_ID per invocation when tracing is active): the join from our trace id to
// X-Ray, since the HTTP API has no X-Ray of its own (docs/OPERATIONS.md, "Tracing").
import { logger } from '../../lib/log';

const lines: string[] = [];
let spy: jest.SpyInstance;
beforeEach(() => {
  lines.length = 0;
  spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => { lines.push(String(chunk)); return true; });
});
afterEach(() => { spy.mockRestore(); delete process.env._X_AMZN_TRACE_ID; });

it('logs the Root of the current invocation\'s X-Ray header, read at each line', () => {
  process.env._X_AMZN_TRACE_ID = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';
  logger.info('first');
  process.env._X_AMZN_TRACE_ID = 'Root=1-6759e988-0000000000000000000000aa;Parent=0000000000000001;Sampled=0';
  logger.info('second');
  expect(lines.map((l) => JSON.parse(l).xrayTraceId)).toEqual(['1-5759e988-bd862e3fe1be46a994272793', '1-6759e988-0000000000000000000000aa']);
});

it('has no X-Ray field where there is no X-Ray (locally, tests)', () => {
  logger.info('local');
  expect(JSON.parse(lines[0]!)).not.toHaveProperty('xrayTraceId');
});
