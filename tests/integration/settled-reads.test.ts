// No read an invocation started runs on after its answer (lib/auth/caller.ts settled): in
// Lambda the instance freezes after the answer, and a read left running would finish, and
// write its db_call line, inside the next invocation, under that one's trace id (lib/log.ts).
// Authentication starts the caller's block lists beside the handler; here their Query is held
// back a second, so that the handler's own answer would come first.
import { dynamo } from '../../lib/db/client';
import { call } from '../support/invoke';
import { makeUser } from '../support/factories';
import { newId } from '../../lib/ids';
import { BLOCK_PREFIX } from '../../lib/keys';
import { handler as getPost } from '../../functions/posts/get';
import { http } from '../../lib/http';

let inFlight = 0;
let holdBlockLists = false;
dynamo.middlewareStack.add((next) => async (args) => {
  inFlight += 1;
  try {
    const values = JSON.stringify((args.input as { ExpressionAttributeValues?: unknown }).ExpressionAttributeValues ?? {});
    if (holdBlockLists && values.includes(`"${BLOCK_PREFIX}"`)) await new Promise((r) => setTimeout(r, 1_000));
    return await next(args);
  } finally {
    inFlight -= 1;
  }
}, { step: 'initialize', name: 'testRequestsInFlight' });

beforeEach(() => { holdBlockLists = true; });
afterEach(() => { holdBlockLists = false; });

it('an error answer waits for the reads authentication started', async () => {
  const u = await makeUser();
  const res = await call(getPost, 'GET /posts/{post_id}', { token: u.token, params: { post_id: newId() } });
  expect(res.status).toBe(404);
  expect(inFlight).toBe(0);
});

it('a success answer waits for a read the handler started and left', async () => {
  const u = await makeUser();
  // A handler that starts the block lists and answers without them.
  const leaves = http({ scrubHidden: false }, async ({ caller }) => {
    void caller.blockLists();
    return { body: {} };
  });
  const res = await call(leaves, 'GET /probe', { token: u.token });
  expect(res.status).toBe(200);
  expect(inFlight).toBe(0);
});
