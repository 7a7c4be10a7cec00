import { cutBody, redact, REDACTED, REFUSED_BODY_MAX_BYTES } from '../../lib/audit/redact';
import { diffState } from '../../lib/audit/diff';
import { buildLogRecord } from '../../lib/audit/records';

describe('redact', () => {
  it('removes every secret-looking key, at any depth, and bearer tokens in values', () => {
    const out = redact({
      username: 'ada',
      password: 'hunter22',
      nested: { newPassword: 'x', list: [{ accessToken: 'abc' }, 'Bearer eyJabc.def.ghi'] },
      jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig',
      passwordHash: 'scrypt$1',
      api_key: 'k',
    });
    expect(out).toEqual({
      username: 'ada',
      password: REDACTED,
      nested: { newPassword: REDACTED, list: [{ accessToken: REDACTED }, REDACTED] },
      jwt: REDACTED,
      passwordHash: REDACTED,
      api_key: REDACTED,
    });
  });

  it('removes the secrets of the session endpoints: refresh token, current and new password', () => {
    expect(redact({ body: { refreshToken: 'U.S.secret', currentPassword: 'old', newPassword: 'new' } }))
      .toEqual({ body: { refreshToken: REDACTED, currentPassword: REDACTED, newPassword: REDACTED } });
  });

  it('removes the secrets of two-factor sign-in: the code, the challenge, the secret, the recovery codes, the otpauth URL', () => {
    expect(redact({ body: { challenge: 'U.c', code: '123456', password: 'pw' }, secret: 'S', recoveryCodes: ['a'], otpauthUrl: 'otpauth://x', pendingSecret: 'P' }))
      .toEqual({ body: { challenge: REDACTED, code: REDACTED, password: REDACTED }, secret: REDACTED, recoveryCodes: REDACTED, otpauthUrl: REDACTED, pendingSecret: REDACTED });
    // Only a key that is exactly "code" is a code: an error's code or a post code stays.
    expect(redact({ errorCode: 'X', postcode: '1000' })).toEqual({ errorCode: 'X', postcode: '1000' });
    // A refused request's record keeps its error's code (the envelope's), not a body's code.
    expect(redact({ error: { status: 400, code: 'VALIDATION_ERROR' }, body: { code: '123456' } }))
      .toEqual({ error: { status: 400, code: 'VALIDATION_ERROR' }, body: { code: REDACTED } });
  });

  it('leaves ordinary values alone and does not modify its input', () => {
    const input = { bio: 'I like tokens of appreciation', n: 3, ok: true, none: null };
    expect(redact(input)).toEqual(input);
    expect(redact(input)).not.toBe(input);
  });
});

describe('diffState', () => {
  it('lists only the changed fields, with their old and new values', () => {
    expect(diffState({ bio: 'a', name: 'N', gender: '' }, { bio: 'b', name: 'N', gender: 'x' }))
      .toEqual({ changes: ['bio', 'gender'], before: { bio: 'a', gender: '' }, after: { bio: 'b', gender: 'x' } });
  });

  it('has an empty before for a creation and an empty after for a deletion', () => {
    expect(diffState(null, { a: 1 })).toEqual({ before: {}, after: { a: 1 }, changes: ['a'] });
    expect(diffState({ a: 1 }, null)).toEqual({ before: { a: 1 }, after: {}, changes: ['a'] });
  });

  it('treats a field that appears or disappears as changed', () => {
    expect(diffState({ a: 1 }, { b: 2 })).toEqual({ before: { a: 1 }, after: { b: 2 }, changes: ['a', 'b'] });
  });
});

describe('buildLogRecord', () => {
  it('fills the seed fields from the trace context and redacts payload and diff', () => {
    const rec = buildLogRecord(
      { traceId: 't-1', scenarioId: 's', stepId: '2', simTimestamp: 12.5 },
      { type: 'USER_REGISTERED', description: 'x', actorId: 'U1', payload: { body: { password: 'p' } }, diff: diffState(null, { token: 'z' }) },
    );
    expect(rec).toMatchObject({
      traceId: 't-1', scenarioId: 's', stepId: '2', simTimestamp: 12.5, level: 'INFO',
      action: { type: 'USER_REGISTERED', description: 'x' }, actor: { type: 'user', id: 'U1' },
      payload: { body: { password: REDACTED } }, stateDiff: { after: { token: REDACTED } },
    });
    expect(rec.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});

describe('cutBody', () => {
  it('keeps a body of at most 4 KiB of JSON text as it is, secrets removed', () => {
    const body = { bio: 'b'.repeat(4000), password: 'hunter22' };
    expect(cutBody(body)).toEqual({ body: { bio: 'b'.repeat(4000), password: REDACTED } });
  });

  it('cuts a longer one to its first 4,096 bytes of UTF-8 text, never inside a code point, secrets removed first', () => {
    // '{"password":"[REDACTED]","bio":"' is 32 bytes; then 3-byte characters: byte 4,096 falls inside one.
    const { body, truncated } = cutBody({ password: 'x'.repeat(100_000), bio: '€'.repeat(30_000) });
    expect(truncated).toBe(true);
    expect(typeof body).toBe('string');
    const text = body as string;
    expect(text.startsWith('{"password":"[REDACTED]","bio":"€€')).toBe(true);
    expect(Buffer.byteLength(text, 'utf8')).toBe(32 + 3 * Math.floor((REFUSED_BODY_MAX_BYTES - 32) / 3));
    expect(text).not.toContain('\uFFFD');
    expect(text).not.toContain('xxx');
  });

  it('cuts a string body the same way: its JSON text, quotes included', () => {
    expect(cutBody('a'.repeat(5000))).toEqual({ body: `"${'a'.repeat(4095)}`, truncated: true });
    expect(cutBody('a'.repeat(4094))).toEqual({ body: 'a'.repeat(4094) });
  });
});
