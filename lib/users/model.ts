// The stored user and the User object of the API. email, bookmarks and blocked_users
// are private: only the caller's own object carries them (contract section 6).
export interface UserItem {
  PK: string;
  SK: string;
  type: 'USER';
  id: string;
  name: string;
  username: string;
  email: string;
  passwordHash: string;
  image: string;
  bio: string;
  gender: string;
  emailVerified: boolean;
  createdAt: string;
  updatedAt: string;
  postsCount: number;
  followersCount: number;
  followingCount: number;
  blockedCount: number;
  GSI3PK: string;
  /** A private account (contract section 18); absent = false. */
  isPrivate?: boolean;
  /** The user's pending outgoing follow requests (they count toward the follow limit); absent = 0. */
  requestsOut?: number;
  /** Set once the user had more than FANOUT_MAX_FOLLOWERS followers when posting (lib/feed). */
  pullMode?: boolean;
  /** Set once every follower's feed has the user as a pull source: from then on posts are not copied. */
  pullReady?: boolean;
  /** Moves when every session of the account ends at once (lib/auth/sessions.ts endAllSessions); absent = 0. */
  sessionEpoch?: number;
  /** The session the last move of the epoch kept (a password change keeps the caller's): its tokens of epochs `from` on stay good. */
  keptSession?: { id: string; from: number };
  /**
   * Sessions ended one by one (logout, DELETE /auth/sessions, a reused refresh token): id ->
   * when (epoch ms). Their access tokens are refused while an entry stands; it is dropped once
   * every token of the session has expired (lib/auth/sessions.ts ENDED_KEEP_MS). `endedV`
   * moves with every change of the map (its writes are conditioned on it).
   */
  endedSessions?: Record<string, number>;
  endedV?: number;
  /** Set when the account was deleted; its cleanup removes the item within 60 s (lib/account). */
  deletedAt?: string;
  /** Set while a moderator's suspension stands (contract section 15). */
  suspendedAt?: string;
  /** True while two-factor sign-in is on (lib/auth/two-factor.ts); shown on the own object only. */
  twoFactorEnabled?: boolean;
  /**
   * Moves (+1) in the same transaction as every change of the user's follow edges, either
   * direction; absent = 0. The stream keeps `recentFollowers` / `recentFollowing` (the
   * newest RECENT_IDS ids of each, newest first) and records in `recentV` the edgesV they
   * reflect (lib/graph/recent.ts). The arrays are used only while the two are equal.
   */
  edgesV?: number;
  recentV?: number;
  recentFollowers?: string[];
  recentFollowing?: string[];
}

export interface UserEdges {
  followers: string[];
  following: string[];
  bookmarks?: string[];
  blocked_users?: string[];
}

export interface BaseUser {
  _id: string;
  name: string;
  username: string;
  email?: string;
  image: string;
  bio: string;
  gender: string;
  emailVerified: boolean;
  isPrivate: boolean;
  followers: string[];
  following: string[];
  bookmarks?: string[];
  blocked_users?: string[];
  twoFactorEnabled?: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The fields a profile edit may change, as stored. */
export const EDITABLE_FIELDS = ['name', 'username', 'bio', 'gender', 'image', 'isPrivate'] as const;
export type EditableField = (typeof EDITABLE_FIELDS)[number];

export function toBaseUser(item: UserItem, edges: UserEdges, own: boolean): BaseUser {
  const base: BaseUser = {
    _id: item.id,
    name: item.name,
    username: item.username,
    image: item.image,
    bio: item.bio,
    gender: item.gender,
    emailVerified: item.emailVerified,
    isPrivate: item.isPrivate === true,
    followers: edges.followers,
    following: edges.following,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
  if (!own) return base;
  return {
    ...base,
    email: item.email,
    bookmarks: edges.bookmarks ?? [],
    blocked_users: edges.blocked_users ?? [],
    twoFactorEnabled: item.twoFactorEnabled === true,
  };
}

/**
 * A user as one who blocks the viewer appears on the viewer's own blocked list, where both
 * blocked each other (contract section 6): its id and username, to be able to unblock it, and
 * every other base field empty, so that nothing of its live profile reaches one it blocked.
 */
export function namesOnly(user: Pick<BaseUser, '_id' | 'username'>): BaseUser {
  return {
    _id: user._id, name: '', username: user.username, image: '', bio: '', gender: '', emailVerified: false, isPrivate: false,
    followers: [], following: [], createdAt: '', updatedAt: '',
  };
}

/**
 * How many of a user's newest ids its item keeps, per direction: the followers a user object
 * embeds (EMBED_LIMIT.list), and twice as many followings: the sample suggestions rank from
 * (lib/graph/suggest.ts), read from the caller's own item instead of its index; lists of
 * users then also know a caller's whole following up to 20 (lib/graph/relations.ts).
 * Readers slice what they embed.
 */
export const RECENT_IDS = { followers: 10, following: 20 } as const;

/**
 * The user's newest follower and following ids as the stream keeps them on the item, when
 * they reflect every follow change the item has seen (recentV = edgesV); otherwise
 * undefined, and the caller reads the edges (lib/users/repo.ts loadEdges). An item written
 * before these attributes existed has no recentV and is read the old way until its next
 * change brings them.
 */
export function recentEdges(item: UserItem): UserEdges | undefined {
  if (item.recentV === undefined || item.recentV !== (item.edgesV ?? 0)) return undefined;
  return { followers: item.recentFollowers ?? [], following: item.recentFollowing ?? [] };
}

/** Profile counters, as the single-user profile shows them. */
export function counters(item: UserItem) {
  return {
    postsCount: item.postsCount ?? 0,
    followersCount: item.followersCount ?? 0,
    followingCount: item.followingCount ?? 0,
  };
}
