// Which Web Push endpoints are accepted (contract section 20) and what a push service's answer
// means (lib/live/endpoint.ts, lib/live/push.ts).
import { endpointProblem, privateAddress } from '../../lib/live/endpoint';
import { outcomeOf, retryAfterMs, PUSH_RETRY_WAIT_MS } from '../../lib/live/push';

describe('endpoints', () => {
  it.each([
    'https://fcm.googleapis.com/fcm/send/abc',
    'https://updates.push.services.mozilla.com/wpush/v2/abc',
    'https://web.push.apple.com/QG9',
    'https://93.184.216.34/push',
  ])('accepts %s on every stage', (url) => {
    expect(endpointProblem(url, false)).toBeUndefined();
  });

  it.each([
    'http://push.example.com/x', 'ftp://push.example.com/x', 'not a url', 'https://user:pw@push.example.com/x',
    'https://10.0.0.1/x', 'https://172.16.5.4/x', 'https://192.168.1.1/x', 'https://127.0.0.1/x', 'https://169.254.169.254/x',
    'https://100.64.0.1/x', 'https://0.0.0.0/x', 'https://[::1]/x', 'https://[fe80::1]/x', 'https://[fc00::1]/x', 'https://[::ffff:10.0.0.1]/x',
    'https://[fd00:ec2::254]/x', 'https://localhost/x', 'https://push.localhost/x', 'https://metadata.google.internal/x', 'https://intranet/x',
    'http://localhost:8090/notify/x', 'http://127.0.0.1:8090/notify/x', 'http://[::1]:8090/notify/x',
  ])('refuses %s outside the local stage', (url) => {
    expect(endpointProblem(url, false)).toEqual(expect.any(String));
  });

  it('accepts http on loopback on the local stage only, and nothing else private there', () => {
    for (const url of ['http://localhost:8090/notify/x', 'http://127.0.0.2:8090/notify/x', 'http://[::1]:8090/notify/x']) expect(endpointProblem(url, true)).toBeUndefined();
    for (const url of ['http://10.0.0.1/x', 'https://192.168.0.1/x', 'http://push.example.com/x']) expect(endpointProblem(url, true)).toEqual(expect.any(String));
  });

  it('tells private addresses from public ones', () => {
    expect(privateAddress('8.8.8.8')).toBe(false);
    expect(privateAddress('2606:4700::1111')).toBe(false);
    for (const ip of ['10.1.1.1', '127.0.0.1', '169.254.0.1', '::1', 'fe80::1', 'fd12::1', '::ffff:192.168.0.1', '224.0.0.1']) expect(privateAddress(ip)).toBe(true);
  });
});

describe("a push service's answers", () => {
  it('delivers on 2xx; deletes on 404, 410 and other 4xx; retries 408, 429, 5xx', () => {
    expect(outcomeOf(201, undefined, 1)).toEqual({ kind: 'delivered' });
    for (const s of [400, 403, 404, 410, 413]) expect(outcomeOf(s, undefined, 1).kind).toBe('dead');
    for (const s of [408, 429, 500, 502, 503]) expect(outcomeOf(s, undefined, 1).kind).toBe('retry');
  });

  it('honours Retry-After in seconds or as a date, within 30 s for the first retry', () => {
    expect(retryAfterMs('7', 1)).toBe(7_000);
    expect(retryAfterMs(new Date(Date.now() + 12_000).toUTCString(), 1, Date.now())).toBeGreaterThan(10_000);
    expect(retryAfterMs('3600', 1)).toBe(PUSH_RETRY_WAIT_MS);
    expect(retryAfterMs(undefined, 1)).toBeLessThanOrEqual(30_000);
    expect(PUSH_RETRY_WAIT_MS).toBeLessThanOrEqual(30_000);
  });
});
