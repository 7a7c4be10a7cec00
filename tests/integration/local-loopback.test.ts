// Every local server listens on loopback only (contract sections 10 and 12): DynamoDB Local
// (whose own jar listens on every interface: scripts/lib/DynamoDBLoopback.java binds it) and
// the S3-compatible storage, as the run's global setup started them with the scripts npm
// start uses. The npm start stack as a whole: tests/http/offline.test.ts.
import { bindingOf, isLoopback, listeners } from '../support/listening';

const portOf = (url: string) => Number(new URL(url).port);

it.each([
  ['DynamoDB Local', () => process.env.DYNAMODB_ENDPOINT!],
  ['the S3-compatible storage', () => process.env.S3_ENDPOINT!],
])('%s listens on loopback only', async (_name, endpoint) => {
  const { listening, outside } = await bindingOf(portOf(endpoint()));
  expect(listening.length).toBeGreaterThan(0);
  if (listeners()) expect(listening.filter((a) => !isLoopback(a))).toEqual([]);
  expect(outside).toEqual([]);
});

it('reads listening addresses right: one on every interface is told apart from one on loopback', async () => {
  // The reader itself, on two servers of known bindings (so the checks above can fail).
  const { createServer } = await import('node:net');
  const open = (host: string) => new Promise<import('node:net').Server>((resolve) => { const s = createServer(); s.listen(0, host, () => resolve(s)); });
  const [wide, local] = [await open('0.0.0.0'), await open('127.0.0.1')];
  try {
    const all = listeners();
    if (all) {
      const at = (s: import('node:net').Server) => all.filter((l) => l.port === (s.address() as { port: number }).port).map((l) => l.address);
      expect(at(wide)).toEqual(['0.0.0.0']);
      expect(at(local)).toEqual(['127.0.0.1']);
      expect(isLoopback('0.0.0.0')).toBe(false);
      expect(isLoopback('::')).toBe(false);
      expect(isLoopback('::ffff:127.0.0.1')).toBe(true);
    } else {
      expect((await bindingOf((wide.address() as { port: number }).port)).outside.length).toBeGreaterThan(0);
    }
  } finally {
    await Promise.all([wide, local].map((s) => new Promise((r) => s.close(r))));
  }
});
