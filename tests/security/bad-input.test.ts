// Hostile and malformed input against every route (tests/support/routes.ts): each is a 4xx
// in the envelope, never a 5xx, leaks nothing internal, and changes nothing.
import { apiEvent, call, lambdaContext, type CallOptions, type CallResult } from '../support/invoke';
import { makeUser, uniq } from '../support/factories';
import { rows, type FixtureContext, type Route, type Valid } from '../support/routes';
import { expectEnvelope, expectNothingChanged, snapshot } from '../support/refusal';
import { getItem } from '../support/db';
import * as keys from '../../lib/keys';
import { isTagRun } from '../../lib/text/tags';
import { handler as edit } from '../../functions/users/edit';
import { handler as register } from '../../functions/auth/register';

const KIB = 1024;

/** Sends `opts` on top of the route's valid request and checks the refusal and that nothing changed. */
async function refused(route: Route, ctx: FixtureContext, opts: (v: Valid) => CallOptions, status?: number, code?: string): Promise<CallResult> {
  const valid = await route.valid(ctx);
  const before = await snapshot(ctx, valid);
  const traceId = `bad-${uniq('t')}`;
  const o = opts(valid);
  const res = await call(route.handler, route.key, {
    params: valid.params, query: valid.query, token: valid.token ?? ctx.me.token, ...o, headers: { 'X-Trace-Id': traceId, ...o.headers },
  });
  expectEnvelope(res, status, code, o.rawBody ?? o.body ?? o.params ?? o.query);
  await expectNothingChanged(ctx, before, valid, traceId);
  return res;
}

const json = (rawBody: string): CallOptions => ({ rawBody, headers: { 'content-type': 'application/json' } });

describe.each(rows())('%s', (_key, route) => {
  let ctx: FixtureContext;
  beforeAll(async () => { ctx = { me: await makeUser(), other: await makeUser() }; });
  const valid = () => route.valid(ctx);

  if (route.body) {
    const props = Object.entries(route.body.properties ?? {});

    it('refuses truncated and non-JSON bodies with 400 INVALID_JSON', async () => {
      for (const raw of ['{"name": "x"', '{', '{"a":}', 'nul', "{'a': 1}", '{"a":1}}', '\u0000']) {
        await refused(route, ctx, () => json(raw), 400, 'INVALID_JSON');
      }
    });

    it('refuses a body without a JSON content type with 415', async () => {
      for (const type of [undefined, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'json', 'application/vnd.api+json', 'application/json-patch+json', 'application/jsonx', 'application/json, text/plain', 'application', 'application/json/x']) {
        await refused(route, ctx, (v) => ({ rawBody: JSON.stringify(v.body), headers: type ? { 'content-type': type } : ({} as Record<string, string>) }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      }
    });

    it('refuses a body over 100 KiB with 413, also when it is otherwise valid', async () => {
      await refused(route, ctx, (v) => json(JSON.stringify({ ...(v.body as object), pad: 'x'.repeat(100 * KIB) })), 413, 'PAYLOAD_TOO_LARGE');
      await refused(route, ctx, () => json(`"${'€'.repeat(35 * KIB)}"`), 413, 'PAYLOAD_TOO_LARGE'); // 105 KiB in UTF-8, 35 Ki characters
    });

    it('refuses JSON that is not an object', async () => {
      // Falsy values too: each is valid JSON, so never INVALID_JSON, and never a 500.
      for (const raw of ['[]', '[{}]', '"text"', '42', 'true', 'null', 'false', '0', '0.0', '-0', '""', '"x"', ' null ']) {
        await refused(route, ctx, () => json(raw), 400, 'VALIDATION_ERROR');
      }
    });

    it('refuses __proto__ and constructor keys, at the top and nested', async () => {
      for (const raw of ['{"__proto__": {"admin": true}}', '{"constructor": {"prototype": {"admin": true}}}', '{"name": {"__proto__": {"x": 1}}}']) {
        await refused(route, ctx, () => json(raw), 400);
      }
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    });

    it('refuses unknown fields, naming them', async () => {
      const res = await refused(route, ctx, (v) => ({ body: { ...(v.body as object), zzUnknown: 1, 'a.b': 2 } }), 400, 'VALIDATION_ERROR');
      expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(expect.arrayContaining(['zzUnknown', 'a.b']));
    });

    it.each(props)('refuses wrong types, lengths and text in "%s", naming it', async (field, schema) => {
      // Wrong types and lengths are 400s naming the field on every route.
      const strict: unknown[] = [123, -1, true, false, null, [], ['x'], {}, { $ne: null }];
      // A boolean field (`isPrivate`): true and false are its values; a boolean in text is not.
      if (schema.type === 'boolean') strict.splice(2, 2, 'true', 1);
      // An array of strings (`altText`): ['x'] may be valid; an array of a number is not.
      if (schema.type === 'array') strict.splice(strict.findIndex((v) => Array.isArray(v) && v.length === 1), 1, [123]);
      // A number field (media upload `size`): a number in text, a fraction and numbers out of its range instead of 123.
      if (schema.type === 'integer') {
        strict.splice(0, 1, '123', 1.5, 0);
        if (typeof schema.maximum === 'number') strict.push(schema.maximum + 1);
      }
      // A field that is null or a number (a push subscription's `expirationTime`): a number in text, and no null.
      const types = [schema.type, ...((schema.anyOf as { type?: unknown }[] | undefined) ?? []).map((s) => s.type)].flat();
      if (types.includes('number')) strict.splice(0, 1, '123');
      if (types.includes('null')) strict.splice(strict.indexOf(null), 1);
      const max = (schema.maxLength as number | undefined) ?? (schema.anyOf as { maxLength?: number }[] | undefined)?.find((s) => s.maxLength)?.maxLength;
      if (max !== undefined) strict.push('a'.repeat(max + 1), '😀'.repeat(max + 1));
      for (const value of strict) {
        const res = await refused(route, ctx, (v) => ({ body: { ...(v.body as object), [field]: value } }), 400, 'VALIDATION_ERROR');
        // An element of an array field (media ids) is named by its index: "media.0" names "media".
        // A field of an object field (a push subscription's `keys.p256dh`) names it too.
        const paths = res.body.details.map((d: { path: string }) => d.path.replace(/\.\d+$/, '').replace(new RegExp(`^${field}\\..*$`), field));
        expect({ value, paths }).toEqual({ value, paths: expect.arrayContaining([field]) });
      }
      // Empty, invisible or control text is refused too; a credential check may answer it 401.
      const odd: unknown[] = [];
      if (((schema.minLength as number | undefined) ?? 0) >= 1) odd.push('', '   ', '\u200f\u200f', '\u200b');
      if (schema.type === 'string') odd.push('\u0000', 'a\u0007b');
      for (const value of odd) await refused(route, ctx, (v) => ({ body: { ...(v.body as object), [field]: value } }));
    });

    it.each(props.filter(([, s]) => s.type === 'string' || s.anyOf))('refuses a lone surrogate in "%s" (sent as raw escaped JSON)', async (field) => {
      for (const escaped of ['\\ud800', '\\udfff', 'a\\ud83d', '\\ude00b']) {
        await refused(route, ctx, (v) => json(JSON.stringify({ ...(v.body as object), [field]: 'PLACEHOLDER' }).replace('PLACEHOLDER', escaped)));
      }
    });

    it('refuses a missing body and an empty one', async () => {
      await refused(route, ctx, () => ({}), 400, 'VALIDATION_ERROR');
      await refused(route, ctx, () => json('   '), 400);
    });
  } else {
    it('refuses a body on a route that takes none', async () => {
      await refused(route, ctx, () => ({ body: { name: 'x' } }), 400, 'VALIDATION_ERROR');
    });

    it('refuses a JSON body of every other type on a route that takes none', async () => {
      for (const raw of ['false', '0.0', 'null', '"x"', '[]', '{"a":1}']) {
        await refused(route, ctx, () => json(raw), 400, 'VALIDATION_ERROR');
      }
    });

    it('checks a body it does not take like any other: 415, 413, INVALID_JSON (as its OpenAPI entry says)', async () => {
      await refused(route, ctx, () => ({ rawBody: 'x', headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      await refused(route, ctx, () => json(JSON.stringify({ pad: 'x'.repeat(101 * KIB) })), 413, 'PAYLOAD_TOO_LARGE');
      await refused(route, ctx, () => json('{"a":'), 400, 'INVALID_JSON');
    });
  }

  for (const param of route.pathParams) {
    it(`answers hostile values of {${param}} with a 4xx`, async () => {
      const hostile = [
        '..%2F..%2Fetc%2Fpasswd', 'a/b', '../../', '%00', '\u0000', 'a\u0000b', 'x'.repeat(2000), 'USER#x', 'USERNAME#me', 'POST#01ARZ3NDEKTSV4RRFFQ69G5FAV',
        'TRACE#x', '#', ' ', '\u202e', '😀', "' OR '1'='1", '<script>alert(1)</script>', '${jndi:ldap://x}', 'a'.repeat(27), '01ARZ3NDEKTSV4RRFFQ69G5FA', '-1', 'null', '__proto__', 'constructor',
      ];
      // A tag page answers any valid tag name (contract section 19): `null`, `__proto__` or 27
      // letters are tags, with a page of their own; every other value here is refused.
      for (const value of hostile.filter((h) => param !== 'tag' || !isTagRun(h))) {
        const res = await refused(route, ctx, (v) => ({ params: { ...v.params, [param]: value }, body: v.body }));
        expect({ value, status: res.status }).toEqual({ value, status: expect.any(Number) });
        expect([400, 404]).toContain(res.status);
      }
    });
  }

  it('refuses unknown and hostile query parameters', async () => {
    for (const query of [{ zz: '1' }, JSON.parse('{"__proto__": "1"}'), { constructor: 'x' }, { 'a[b]': '1' }, { '': 'x' }, { admin: 'true' }] as Record<string, string>[]) {
      await refused(route, ctx, (v) => ({ body: v.body, query: { ...v.query, ...query } }), 400, 'VALIDATION_ERROR');
    }
  });

  for (const [name] of Object.entries(route.query?.properties ?? {})) {
    it(`refuses hostile values of the query parameter "${name}"`, async () => {
      for (const value of ['-1', '0', '1e3', 'NaN', 'Infinity', '1.5', '0x10', 'x'.repeat(5000), '\u0000', '99999999999']) {
        const res = await call(route.handler, route.key, { token: ctx.me.token, ...(await valid()), query: { [name]: value } });
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expectEnvelope(res);
      }
    });
  }

  if (route.idempotent) {
    it('refuses malformed Idempotency-Key headers with 400', async () => {
      for (const key of ['', ' ', 'a b', 'x'.repeat(256), 'é', '\u0000', 'a\nb']) {
        await refused(route, ctx, (v) => ({ body: v.body, headers: { 'Idempotency-Key': key } }), 400, 'VALIDATION_ERROR');
      }
    });
  }

  it('refuses malformed trace headers with 400', async () => {
    for (const headers of [{ 'X-Trace-Id': 'a b' }, { 'X-Trace-Id': 'x'.repeat(129) }, { 'X-Sim-Timestamp': 'soon' }, { 'X-Scenario-Id': '<x>' }, { traceparent: 'zz' }] as Record<string, string>[]) {
      const v = await valid();
      const before = await snapshot(ctx, v);
      const res = await call(route.handler, route.key, { token: ctx.me.token, ...v, headers });
      expectEnvelope(res, 400, 'VALIDATION_ERROR');
      await expectNothingChanged(ctx, before, v);
    }
  });
});

// A body the platform handed over already parsed: serverless-offline passes falsy JSON values
// (false, 0, null) and JSON strings on parsed, and a direct invocation may carry any value.
describe('bodies handed over parsed (serverless-offline, direct invocations)', () => {
  const withBody = rows((r) => r.body !== undefined && r.auth)[0]![1];
  const without = rows((r) => r.body === undefined && r.auth)[0]![1];
  let ctx: FixtureContext;
  beforeAll(async () => { ctx = { me: await makeUser(), other: await makeUser() }; });
  afterEach(() => { delete process.env.IS_OFFLINE; });

  const send = async (route: Route, body: unknown, length: number, offline = false) => {
    const valid = await route.valid(ctx);
    const event = apiEvent(route.key, { params: valid.params, query: valid.query, token: ctx.me.token, headers: { 'content-type': 'application/json', 'content-length': String(length) } });
    (event as { body?: unknown }).body = body;
    if (offline) process.env.IS_OFFLINE = 'true';
    const res = (await route.handler(event, lambdaContext())) as { statusCode: number; body: string };
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };

  it.each([[false, 5], [0, 3], [null, 4], [true, 4], [42, 2], [[], 2]] as [unknown, number][])('%p is 400 VALIDATION_ERROR on a route with a body and on one without', async (value, length) => {
    for (const route of [withBody, without]) {
      const res = await send(route, value, length);
      expect({ key: route.key, status: res.status, code: res.body.code }).toEqual({ key: route.key, status: 400, code: 'VALIDATION_ERROR' });
    }
  });

  it('a JSON string serverless-offline unwrapped ("x" arrives as x) is 400 VALIDATION_ERROR, not INVALID_JSON', async () => {
    for (const route of [withBody, without]) {
      const res = await send(route, 'x', 3, true);
      expect({ key: route.key, status: res.status, code: res.body.code }).toEqual({ key: route.key, status: 400, code: 'VALIDATION_ERROR' });
    }
    // Text that is not JSON, sent as it is (its length is the one declared), is still INVALID_JSON.
    expect((await send(withBody, 'x', 1, true)).body.code).toBe('INVALID_JSON');
  });

  it('a body whose bytes were not UTF-8 (the platform replaced them with U+FFFD, so it is longer than declared) is 400 INVALID_JSON, with or without serverless-offline', async () => {
    const valid = await withBody.valid(ctx);
    // "caf\xe9" sent as one Latin-1 byte: 1 byte declared, 3 (U+FFFD) handed over.
    const sent = JSON.stringify(valid.body).replace(/}$/, ',"x":"caf\uFFFD"}');
    for (const offline of [false, true]) {
      const res = await send(withBody, sent, Buffer.byteLength(sent) - 2, offline);
      expect({ offline, status: res.status, code: res.body.code }).toEqual({ offline, status: 400, code: 'INVALID_JSON' });
    }
    // U+FFFD sent as such (its 3 bytes declared) is text like any other: the body is checked as usual.
    const res = await send(withBody, sent, Buffer.byteLength(sent));
    expect({ status: res.status, code: res.body.code, details: res.body.details }).toEqual({ status: 400, code: 'VALIDATION_ERROR', details: [{ path: 'x', message: expect.any(String) }] });
  });

  it('still checks the media type and the size of a value handed over parsed', async () => {
    expect((await send(withBody, false, 200 * KIB)).status).toBe(413);
    const valid = await withBody.valid(ctx);
    const event = apiEvent(withBody.key, { params: valid.params, token: ctx.me.token, headers: { 'content-type': 'text/plain' } });
    (event as { body?: unknown }).body = 0;
    expect(((await withBody.handler(event, lambdaContext())) as { statusCode: number }).statusCode).toBe(415);
  });
});

describe('unicode', () => {
  it('refuses lone surrogates in every text field of registration with 400 (a password too: it would hash like U+FFFD)', async () => {
    for (const field of ['name', 'username', 'email', 'password']) {
      const username = uniq('sur');
      const body = { name: 'X', username, email: `${username}@example.test`, password: 'password1', [field]: 'PLACEHOLDER' };
      const rawBody = JSON.stringify(body).replace('PLACEHOLDER', field === 'password' ? 'passw\\ud800rd' : 'a\\udfffb');
      const res = await call(register, 'POST /auth/register', { rawBody, headers: { 'content-type': 'application/json' } });
      expect({ field, status: res.status, paths: res.body.details?.map((d: { path: string }) => d.path) }).toEqual({ field, status: 400, paths: [field] });
      expect(await getItem(keys.username(username))).toBeUndefined();
    }
  });

  it('counts an emoji as one character and keeps right-to-left marks inside text', async () => {
    const u = await makeUser();
    const bio = '😀'.repeat(150);
    const ok = await call(edit, 'POST /users/profile/edit', { token: u.token, body: { bio, name: 'a\u200fb \u05e9\u05dc\u05d5\u05dd' } });
    expect(ok.status).toBe(200);
    expect(ok.body.user.bio).toBe(bio);
    expect(ok.body.user.name).toBe('a\u200fb \u05e9\u05dc\u05d5\u05dd');
    const tooLong = await call(edit, 'POST /users/profile/edit', { token: u.token, body: { bio: `${bio}😀` } });
    expect(tooLong.status).toBe(400);
    expect((await getItem(keys.user(u.id)))!.bio).toBe(bio);
  });

  it('refuses a username with look-alike or right-to-left characters', async () => {
    for (const username of ['\u0430dmin', 'ab\u200fc', 'a\u202eb', 'ａｂｃ', 'ǆ']) {
      const email = `${uniq('uni')}@example.test`;
      const res = await call(register, 'POST /auth/register', { body: { name: 'X', username, email, password: 'password1' } });
      expect({ username, status: res.status }).toEqual({ username, status: 400 });
      expect(await getItem(keys.email(email))).toBeUndefined();
    }
  });
});
