// The user a graph mutation is aimed at: an id or a username in any case; never the caller.
import { resolveUserId } from '../users/repo';
import { NotFound, SelfAction } from '../errors';

export async function targetOf(identifier: string, callerId: string, selfMessage: string): Promise<string> {
  const id = await resolveUserId(identifier);
  if (!id) throw new NotFound('user');
  if (id === callerId) throw new SelfAction(selfMessage);
  return id;
}
