// The body fields of the two-factor routes (contract section 17): a code, and a login's challenge.
import * as z from 'zod/mini';

const TOTP = '\\d{6}';
const RECOVERY = '[A-Za-z2-7]{5}(?:[- ]?[A-Za-z2-7]{5}){3}';

/** A TOTP code of 6 digits, or (where `recovery`) a recovery code; trimmed. */
export const code = (recovery: boolean) => {
  const form = new RegExp(`^(?:${recovery ? `${TOTP}|${RECOVERY}` : TOTP})$`);
  return z.string().check(
    z.trim(),
    z.regex(form, recovery ? 'must be a 6-digit code or a recovery code' : 'must be a 6-digit code'),
    z.meta({
      pattern: `^\\s*(?:${recovery ? `${TOTP}|${RECOVERY}` : TOTP})\\s*$`,
      description: recovery
        ? 'the 6-digit code of the authenticator app, or one of the recovery codes (xxxxx-xxxxx-xxxxx-xxxxx); trimmed'
        : 'the 6-digit code of the authenticator app; trimmed',
    }),
  );
};

/** A login's challenge as POST /auth/login answered it: the account's id, a dot, 256 bits in base64url. */
export const challenge = () => z.string().check(
  z.regex(/^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}\.[A-Za-z0-9_-]{43}$/, 'must be the challenge POST /auth/login answered'),
  z.meta({ description: 'the challenge POST /auth/login answered (good for 5 minutes, one sign-in)' }),
);
