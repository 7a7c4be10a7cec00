// Helpers of the private-account tests (contract section 18): the routes by name.
import { call } from './invoke';
import type { TestUser } from './factories';
import { handler as editH } from '../../functions/users/edit';
import { handler as requestsH } from '../../functions/users/follow-requests';
import { handler as approveH } from '../../functions/users/approve-request';
import { handler as rejectH } from '../../functions/users/reject-request';
import { handler as removeH } from '../../functions/users/remove-follower';
import { handler as muteH } from '../../functions/users/mute';
import { handler as unmuteH } from '../../functions/users/unmute';
import { handler as mutedH } from '../../functions/users/muted';

type Who = { token: string };
const idOf = (t: TestUser | string) => (typeof t === 'string' ? t : t.id);

export const setPrivate = (u: Who, isPrivate: boolean) => call(editH, 'POST /users/profile/edit', { token: u.token, body: { isPrivate } });
export const followRequests = (u: Who, query?: Record<string, string>) => call(requestsH, 'GET /users/follow-requests', { token: u.token, query });
export const approve = (u: Who, t: TestUser | string) => call(approveH, 'POST /users/follow-requests/{identifier}/approve', { token: u.token, params: { identifier: idOf(t) } });
export const reject = (u: Who, t: TestUser | string) => call(rejectH, 'POST /users/follow-requests/{identifier}/reject', { token: u.token, params: { identifier: idOf(t) } });
export const removeFollower = (u: Who, t: TestUser | string) => call(removeH, 'POST /users/followers/{identifier}/remove', { token: u.token, params: { identifier: idOf(t) } });
export const mute = (u: Who, t: TestUser | string) => call(muteH, 'POST /users/mute/{identifier}', { token: u.token, params: { identifier: idOf(t) } });
export const unmute = (u: Who, t: TestUser | string) => call(unmuteH, 'POST /users/unmute/{identifier}', { token: u.token, params: { identifier: idOf(t) } });
export const muted = (u: Who, query?: Record<string, string>) => call(mutedH, 'GET /users/muted', { token: u.token, query });
