import { parseRefreshToken, sessionLive, tokenLive, userAgentOf, type SessionItem } from '../../lib/auth/sessions';
import { config } from '../../lib/config';
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

  it('an access token is live, from the user item alone, while its epoch is the account\'s or one its kept session had, and its session was not ended one by one', () => {
    const now = Date.now();
    const iat = Math.floor(now / 1000) - 10;
    const t = (sessionId: string, epoch: number, issuedAt = iat) => ({ sessionId, epoch, issuedAt });
    expect(tokenLive({}, t('S', 0), now)).toBe(true);
    expect(tokenLive({}, t('S', 1), now)).toBe(false);
    expect(tokenLive({ sessionEpoch: 2 }, t('S', 1), now)).toBe(false);
    expect(tokenLive({ sessionEpoch: 2 }, t('S', 2), now)).toBe(true);
    // A password change moved the epoch from 1 to 3 in two steps, keeping session K both times.
    const kept = { sessionEpoch: 3, keptSession: { id: 'K', from: 1 } };
    expect([0, 1, 2, 3].map((e) => tokenLive(kept, t('K', e), now))).toEqual([false, true, true, true]);
    expect([1, 2, 3].map((e) => tokenLive(kept, t('OTHER', e), now))).toEqual([false, false, true]);
    expect(tokenLive(kept, t('K', 4), now)).toBe(false);
    // Ended one by one.
    expect(tokenLive({ endedSessions: { S: now - 1000 } }, t('S', 0), now)).toBe(false);
    expect(tokenLive({ endedSessions: { S: now - 1000 } }, t('T', 0), now)).toBe(true);
    expect(tokenLive({ ...kept, endedSessions: { K: now } }, t('K', 2), now)).toBe(false);
    // Signed longer ago than a session lasts.
    const ttl = Math.round(config.sessionTtlDays * 86_400);
    expect(tokenLive({}, t('S', 0, Math.floor(now / 1000) - ttl + 5), now)).toBe(true);
    expect(tokenLive({}, t('S', 0, Math.floor(now / 1000) - ttl - 1), now)).toBe(false);
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
