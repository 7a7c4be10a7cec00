// Access tokens: HS256 JWTs signed and verified with jose. Each carries the kid of the key
// that signed it (lib/auth/keys.ts: the current key of the stage's key set), and verifies
// against the key its kid names, so two keys are valid during a rotation. Verification pins
// the algorithm and checks the kid, issuer, audience, expiry and the presence of sub, sid,
// iat and exp. A token is only as good as its session (`sid`): lib/auth/sessions.ts checks
// that the session is live on every authenticated request.
import { SignJWT, jwtVerify, type JWTHeaderParameters } from 'jose';
import { config } from '../config';
import { Unauthorized } from '../errors';
import { isId } from '../ids';
import { jwtKeys } from './keys';

const ALGORITHMS = ['HS256'];

export interface TokenClaims {
  userId: string;
  sessionId: string;
  scopes: Set<string>;
}

export async function signToken(userId: string, sessionId: string, scopes: string[] = [], ttlSeconds = config.tokenTtlSeconds): Promise<string> {
  const keys = await jwtKeys.get();
  const jwt = new SignJWT({ sid: sessionId, ...(scopes.length ? { scope: scopes.join(' ') } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: keys.current })
    .setSubject(userId)
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
      requiredClaims: ['sub', 'sid', 'iat', 'exp'],
    });
    if (typeof payload.sub !== 'string' || payload.sub === '') throw new Error('sub');
    if (typeof payload.sid !== 'string' || !isId(payload.sid)) throw new Error('sid');
    const scope = typeof payload.scope === 'string' ? payload.scope : '';
    return { userId: payload.sub, sessionId: payload.sid.toUpperCase(), scopes: new Set(scope.split(' ').filter(Boolean)) };
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
