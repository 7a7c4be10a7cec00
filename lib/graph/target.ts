// The user a graph mutation is aimed at: an id or a username in any case. Following or
// blocking yourself is a 400 SELF_ACTION (contract section 2); undoing either is not: you
// never follow or block yourself, so unfollowing or unblocking yourself is the contract's
// "unfollowing someone you do not follow", a 200 no-op.
import { resolveUserId } from '../users/repo';
import { NotFound, SelfAction } from '../errors';

export async function targetOf(identifier: string, callerId: string, selfMessage?: string): Promise<string> {
  const id = await resolveUserId(identifier);
  if (!id) throw new NotFound('user');
  if (id === callerId && selfMessage) throw new SelfAction(selfMessage);
  return id;
}
