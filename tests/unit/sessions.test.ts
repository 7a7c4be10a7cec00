import { parseRefreshToken, sessionLive, userAgentOf, type SessionItem } from '../../lib/auth/sessions';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';

const session = (over: Partial<SessionItem> = {}): SessionItem => ({
  PK: 'USER#U', SK: 'SESSION#S', type: 'SESSION', id: 'S', userId: 'U', epoch: 0, tokenHash: 'h',
  createdAt: '', lastUsedAt: '', userAgent: '', expiresAt: Math.floor(Date.now() / 1000) + 60, ...over,
});

describe('sessions', () => {
  it('a session is live while it exists, has not expired and belongs to the user\'s current epoch', () => {
    const now = Date.now();
    expect(sessionLive(session(), {}, now)).toBe(true);
    expect(sessionLive(undefined, {}, now)).toBe(false);
    expect(sessionLive(session(), undefined, now)).toBe(false);
    expect(sessionLive(session({ expiresAt: Math.floor(now / 1000) }), {}, now)).toBe(false);
    expect(sessionLive(session(), { sessionEpoch: 1 }, now)).toBe(false);
    expect(sessionLive(session({ epoch: 2 }), { sessionEpoch: 2 }, now)).toBe(true);
  });

  it('reads the user and session ids of a refresh token of exactly the issued form', () => {
    const [u, s] = [newId(), newId()];
    const secret = 'A'.repeat(43);
    expect(parseRefreshToken(`${u}.${s}.${secret}`)).toEqual({ userId: u, sessionId: s });
    for (const bad of ['', `${u}.${s}`, `${u}.${s}.${secret}A`, `${u}.${s}.${'A'.repeat(42)}`, `${u}.nope.${secret}`, `${u}.${s}.${'+'.repeat(43)}`]) {
      expect(parseRefreshToken(bad)).toBeUndefined();
    }
  });

  it('keeps a User-Agent trimmed and at most 256 characters, counted as code points', () => {
    expect(userAgentOf(undefined)).toBe('');
    expect(userAgentOf('  Phone/1.0 ')).toBe('Phone/1.0');
    expect([...userAgentOf('😀'.repeat(300))]).toHaveLength(256);
  });

  it('access tokens last 15 minutes and sessions 30 days unless configured', () => {
    expect(loadConfig({}).tokenTtlSeconds).toBe(900);
    expect(loadConfig({}).sessionTtlDays).toBe(30);
    expect(loadConfig({ TOKEN_TTL_SECONDS: '60', SESSION_TTL_DAYS: '7' })).toMatchObject({ tokenTtlSeconds: 60, sessionTtlDays: 7 });
    expect(() => loadConfig({ SESSION_TTL_DAYS: '0' })).toThrow('SESSION_TTL_DAYS');
  });
});
