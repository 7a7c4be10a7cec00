// Access tokens: HS256 JWTs signed and verified with jose. Each carries the kid of the key
// that signed it (lib/auth/keys.ts: the current key of the stage's key set), and verifies
// against the key its kid names, so two keys are valid during a rotation. Verification pins
// the algorithm and checks the kid, issuer, audience, expiry and the presence of sub, sid,
// sep, iat and exp; and, so that a leaked key buys as little as possible (contract section 3),
// the claims' exact form: `sub` and `sid` ids as the service writes them (upper case: a
// lower-case `sub` read the same user item, but compared unequal to every block edge, and
// slipped past blocks), no `iat` in the future, and no lifetime (`exp - iat`) beyond
// TOKEN_TTL_SECONDS. A token is only as good as its session (`sid`, of the account's session
// epoch `sep`): lib/auth/sessions.ts checks on every authenticated request, against the user
// item and the session item, that the session exists and has not ended.
import { SignJWT, jwtVerify, type JWTHeaderParameters } from 'jose';
import { config } from '../config';
import { Unauthorized } from '../errors';
import { jwtKeys } from './keys';

const ALGORITHMS = ['HS256'];
/** An id exactly as the service writes it: a ULID in upper case (lib/ids.ts), nothing else. */
const CANONICAL_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;


/** The session a token belongs to: its user, its id and the account's session epoch it was issued in. */
export interface TokenSession {
  userId: string;
  sessionId: string;
  epoch: number;
}

export interface TokenClaims extends TokenSession {
  scopes: Set<string>;
  /** `iat`, epoch seconds. */
  issuedAt: number;
}

export async function signToken(session: TokenSession, scopes: string[] = [], ttlSeconds = config.tokenTtlSeconds): Promise<string> {
  const keys = await jwtKeys.get();
  const jwt = new SignJWT({ sid: session.sessionId, sep: session.epoch, ...(scopes.length ? { scope: scopes.join(' ') } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: keys.current })
    .setSubject(session.userId)
    .setIssuer(config.issuer)
    .setAudience(config.audience)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds);
  return jwt.sign(keys.signingKey);
}

export async function verifyToken(token: string): Promise<TokenClaims> {
  // Outside the try: keys that cannot be read are the server's failure (a 500), not the token's.
  const keys = await jwtKeys.get();
  try {
    // A token without a kid, or naming a key the set does not hold (removed, or never
    // ours), is refused like a bad signature. An unknown kid never triggers a read of the
    // parameter: anyone can send one.
    const keyOf = (header: JWTHeaderParameters) => {
      const key = typeof header.kid === 'string' ? keys.keys.get(header.kid) : undefined;
      if (!key) throw new Error('kid');
      return key;
    };
    const { payload } = await jwtVerify(token, keyOf, {
      algorithms: ALGORITHMS,
      issuer: config.issuer,
      audience: config.audience,
      requiredClaims: ['sub', 'sid', 'sep', 'iat', 'exp'],
    });
    if (typeof payload.sub !== 'string' || !CANONICAL_ID.test(payload.sub)) throw new Error('sub');
    if (typeof payload.sid !== 'string' || !CANONICAL_ID.test(payload.sid)) throw new Error('sid');
    if (!Number.isSafeInteger(payload.sep) || (payload.sep as number) < 0) throw new Error('sep');
    // Issued no later than now, living no longer than the service's tokens do.
    if (payload.iat! > Date.now() / 1000 || payload.exp! - payload.iat! > config.tokenTtlSeconds) throw new Error('iat');
    const scope = typeof payload.scope === 'string' ? payload.scope : '';
    return {
      userId: payload.sub,
      sessionId: payload.sid,
      epoch: payload.sep as number,
      issuedAt: payload.iat!,
      scopes: new Set(scope.split(' ').filter(Boolean)),
    };
  } catch {
    throw new Unauthorized('The access token is invalid or has expired.');
  }
}

/** The token of an `Authorization: Bearer <token>` header, or a 401. */
export function bearerToken(header: string | undefined): string {
  if (!header) throw new Unauthorized('The Authorization header is missing.');
  const m = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)$/i.exec(header.trim());
  if (!m) throw new Unauthorized('The Authorization header must be "Bearer <token>".');
  return m[1]!;
}
