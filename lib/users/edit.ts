// POST /users/profile/edit (contract sections 4 and 12): a partial update of the caller's own
// profile, re-applied on a fresh read when another edit lands between its read and its write.
import { ConditionFailed, type TxItem } from '../db/transact';
import { Unauthorized } from '../errors';
import type { TraceContext } from '../audit/context';
import { markObjectsUsed, profileMediaOf, releaseProfileMedia, removeReplacedMedia, takeMedia, usableMedia } from '../media/use';
import { getUser } from './repo';
import { editProfile, type ProfileChanges } from './write';
import type { UserEdges, UserItem } from './model';

// Each round of concurrent edits of one profile lets at least one through, so this covers
// ten at once; the jittered pause keeps the losers from colliding again in lockstep.
const ATTEMPTS = 10;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));

export interface ProfileEdit {
  userId: string;
  /** The caller's user item, as authentication reads it (a 401 for an ended session). */
  me: Promise<UserItem>;
  changes: ProfileChanges;
  /** An uploaded media to become the profile image (its 320 variant), instead of `changes.image`. */
  imageMedia?: string;
  /** The answer's edge lists, read beside the update (an edit changes no edge). */
  edges: Promise<UserEdges>;
  trace: TraceContext;
  payload: Record<string, unknown>;
  /** Items of the same transaction when the edit makes a private account public (contract section 18: its pending requests are approved by a job). */
  goingPublic?: () => TxItem[];
  /** Items of the same transaction when the edit turns `isPrivate` either way (contract section 19: its posts leave or join the tags' postsCount). */
  privacyChanged?: () => TxItem[];
}

/** The edit applied: the user item as written and its edges. */
export async function updateProfile(e: ProfileEdit): Promise<{ user: UserItem; edges: UserEdges }> {
  // The caller's item first (a token of an ended session gets its 401 before any image is touched).
  const [found, me] = await Promise.all([e.imageMedia ? usableMedia(e.userId, [e.imageMedia], 'imageMedia') : undefined, e.me]);
  let current = me;
  const media = found?.[0];
  const changes = media ? { ...e.changes, image: media.variants!['320'] } : e.changes;
  if (media) await markObjectsUsed([media]);
  for (let attempt = 1; ; attempt++) {
    try {
      // A profile image from an upload is taken in the edit's transaction; the one it replaces, if it was the profile's upload, is given back.
      const replaced = changes.image !== undefined && changes.image !== current.image ? await profileMediaOf(current.image, e.userId) : undefined;
      const extra: TxItem[] = [...(media ? takeMedia([media], 'profile', 'imageMedia') : []), ...(replaced ? releaseProfileMedia(replaced.id, e.userId) : [])];
      if (current.isPrivate === true && changes.isPrivate === false && e.goingPublic) extra.push(...e.goingPublic());
      if (changes.isPrivate !== undefined && changes.isPrivate !== (current.isPrivate === true) && e.privacyChanged) extra.push(...e.privacyChanged());
      const [user, edges] = await Promise.all([editProfile(current, changes, e.trace, e.payload, extra), e.edges]);
      if (replaced) await removeReplacedMedia(replaced);
      return { user, edges };
    } catch (err) {
      // Another edit landed between our read and our write: read again and reapply.
      if (!(err instanceof ConditionFailed) || attempt >= ATTEMPTS) throw err;
      await pause(attempt);
      const fresh = await getUser(current.id);
      if (!fresh || fresh.deletedAt || fresh.suspendedAt) throw new Unauthorized('This account no longer exists or is suspended.');
      current = fresh;
    }
  }
}
