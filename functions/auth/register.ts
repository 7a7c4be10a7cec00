import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { hashPassword } from '../../lib/auth/password';
import { signToken } from '../../lib/auth/tokens';
import { registerUser } from '../../lib/users/write';
import { toBaseUser } from '../../lib/users/model';
import * as f from '../../lib/users/fields';

export const registerBody = z.strictObject({
  name: f.name(),
  username: f.username(),
  email: f.email(),
  password: f.password(),
});

export const handler = http({ auth: false, body: registerBody }, async ({ body, trace }) => {
  const { password, ...profile } = body;
  const user = await registerUser({ ...profile, passwordHash: await hashPassword(password) }, trace, { body });
  return {
    status: 201,
    body: {
      message: 'Registration successful',
      token: await signToken(user.id),
      user: toBaseUser(user, { followers: [], following: [], bookmarks: [], blocked_users: [] }, true),
    },
  };
});
