// The DynamoDB actions each function really calls, recorded while its route serves a valid
// request and a refused one (tests/support/routes.ts fixtures), are all declared for it in
// resources/iam.json. A missing action would be an AccessDenied (a 500) in AWS only.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { call } from '../support/invoke';
import { makeUser } from '../support/factories';
import { rows, type FixtureContext } from '../support/routes';
import { ROOT } from '../../scripts/lib/manifests.mjs';
import { dynamo } from '../../lib/db/client';

const declared = JSON.parse(readFileSync(join(ROOT, 'resources/iam.json'), 'utf8')).functions as Record<string, string[]>;

// IAM actions of a command: a transaction needs the action of each of its operations.
const TX_ACTIONS: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem', Get: 'GetItem' };
let recording: Set<string> | undefined;
dynamo.middlewareStack.add((next, context) => async (args) => {
  if (recording) {
    const command = String(context.commandName).replace(/Command$/, '');
    if (command === 'TransactWriteItems' || command === 'TransactGetItems') {
      for (const item of (args.input as { TransactItems: Record<string, unknown>[] }).TransactItems) {
        for (const op of Object.keys(item)) recording.add(`dynamodb:${TX_ACTIONS[op]}`);
      }
    } else recording.add(`dynamodb:${command}`);
  }
  return next(args);
}, { step: 'initialize', name: 'recordIamActions' });

describe.each(rows())('%s', (_key, route) => {
  let ctx: FixtureContext;
  beforeAll(async () => { ctx = { me: await makeUser(), other: await makeUser() }; });

  it('calls only the DynamoDB actions declared for its function', async () => {
    const used = new Set<string>();
    const valid = await route.valid(ctx);
    recording = used;
    try {
      const ok = await call(route.handler, route.key, { ...valid, token: ctx.me.token });
      expect(ok.status).toBeLessThan(300);
      // Refused with a valid token: the WARN trace record.
      const refused = await call(route.handler, route.key, { ...valid, query: { zz: '1' }, token: ctx.me.token });
      expect(refused.status).toBe(400);
    } finally {
      recording = undefined;
    }
    expect(used.size).toBeGreaterThan(0);
    const missing = [...used].filter((a) => !(declared[route.name] ?? []).includes(a));
    expect({ function: route.name, missing }).toEqual({ function: route.name, missing: [] });
  });
});
