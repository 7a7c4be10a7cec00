// Access tokens: HS256 JWTs signed and verified with jose. Verification pins the
// algorithm and checks issuer, audience, expiry and the presence of sub, sid, iat and exp.
// A token is only as good as its session (`sid`): lib/auth/sessions.ts checks that the
// session is live on every authenticated request.
import { SignJWT, jwtVerify } from 'jose';
import { config } from '../config';
import { Unauthorized } from '../errors';
import { isId } from '../ids';

const ALGORITHMS = ['HS256'];

export interface TokenClaims {
  userId: string;
  sessionId: string;
  scopes: Set<string>;
}

export async function signToken(userId: string, sessionId: string, scopes: string[] = [], ttlSeconds = config.tokenTtlSeconds): Promise<string> {
  const jwt = new SignJWT({ sid: sessionId, ...(scopes.length ? { scope: scopes.join(' ') } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(config.issuer)
    .setAudience(config.audience)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds);
  return jwt.sign(config.jwtSecret);
}

export async function verifyToken(token: string): Promise<TokenClaims> {
  try {
    const { payload } = await jwtVerify(token, config.jwtSecret, {
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
