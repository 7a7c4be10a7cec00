// What every refused request must look like, and must leave behind: the contract's error
// envelope, X-Trace-Id, nothing internal in the answer, and no change (the users'
// items as before, nothing the request would have created, no INFO record in its trace).
import { getItem, queryAll } from './db';
import * as keys from '../../lib/keys';
import type { CallResult } from './invoke';
import type { FixtureContext, Valid } from './routes';

const LEAK = /Exception|\bat [\w.<>$]+ \(|node_modules|\.[jt]s:\d+|aperture-(test|local|prod)|ConditionalCheck|TransactionCanceled|ValidationException|dynamodb/i;

export interface Before { me: unknown; other: unknown; watched: unknown[] }

/** The users' items and the items the valid request would change (`watch`). */
export async function snapshot(ctx: FixtureContext, valid?: Valid): Promise<Before> {
  const [me, other, ...watched] = await Promise.all([
    getItem(keys.user(ctx.me.id)), getItem(keys.user(ctx.other.id)), ...(valid?.watch ?? []).map(getItem),
  ]);
  return { me, other, watched };
}

/** `what` names the case in a failure message. */
export function expectEnvelope(res: CallResult, status?: number, code?: string, what?: unknown): void {
  if (status !== undefined) expect({ what, status: res.status, text: res.text }).toEqual({ what, status, text: expect.any(String) });
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.body).toEqual({
    success: false,
    message: expect.any(String),
    code: code ?? expect.stringMatching(/^[A-Z_]+$/),
    ...(res.body?.details ? { details: expect.any(Array) } : {}),
  });
  for (const d of res.body.details ?? []) expect(d).toEqual({ path: expect.any(String), message: expect.any(String) });
  expect(res.text).not.toMatch(LEAK);
  expect(res.headers['x-trace-id']).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
}

/** The request changed nothing: same user and watched items, nothing created, no INFO record in its trace. */
export async function expectNothingChanged(ctx: FixtureContext, before: Before, valid: Valid, traceId?: string): Promise<void> {
  expect(await snapshot(ctx, valid)).toEqual(before);
  for (const key of valid.creates ?? []) expect(await getItem(key)).toBeUndefined();
  if (traceId) {
    const records = await queryAll(keys.trace(traceId));
    expect(records.filter((r) => r.level === 'INFO')).toEqual([]);
  }
}
