import * as z from 'zod/mini';
import { isHttpUrl, text, intParam } from '../../lib/fields';
import { EMAIL_REGEX, usernameProblem } from '../../lib/users/fields';
import { fold, nameWords, searchTerms } from '../../lib/users/search-terms';
import { hashPassword, verifyPassword } from '../../lib/users/password';

describe('text fields', () => {
  const caption = text(1, 5);
  it('trims, then counts code points (an emoji is one character)', () => {
    expect(z.parse(caption, '  ab ')).toBe('ab');
    expect(z.safeParse(caption, '😀😀😀😀😀').success).toBe(true);
    expect(z.safeParse(caption, '😀😀😀😀😀😀').success).toBe(false);
    expect(z.safeParse(caption, '   ').success).toBe(false);
  });
  it('refuses lone surrogates and control characters, keeps right-to-left marks', () => {
    expect(z.safeParse(caption, 'a\ud800').success).toBe(false);
    expect(z.safeParse(caption, 'a\u0000b').success).toBe(false);
    expect(z.safeParse(caption, '\u200fab').success).toBe(true);
  });
});

describe('URLs', () => {
  it.each([
    ['https://cdn.example.com/a.jpg', true],
    ['http://x.io', true],
    ['javascript:alert(1)', false],
    ['data:image/png;base64,AAAA', false],
    ['/relative/path.png', false],
    ['ftp://x.io/a', false],
    ['https://', false],
    [`https://x.io/${'a'.repeat(2040)}`, false],
    ['https://exa mple.com', false],
  ])('%s -> %s', (url, ok) => expect(isHttpUrl(url)).toBe(ok));
});

describe('integer query parameters', () => {
  const limit = intParam(1, 50, 10);
  it('defaults, parses and bounds', () => {
    expect(z.parse(limit, undefined)).toBe(10);
    expect(z.parse(limit, '50')).toBe(50);
    for (const bad of ['0', '51', '-1', '1.5', 'ten', '', '1e2']) expect(z.safeParse(limit, bad).success).toBe(false);
  });
});

describe('usernames', () => {
  it.each([
    ['ada', undefined],
    ['a.b_c9', undefined],
    ['explore', 'is reserved'],
    ['.ada', 'must not start or end with "."'],
    ['a..b', 'must not contain ".."'],
    ['01arz3ndektsv4rrffq69g5fav', 'must not have the form of an identifier'],
  ])('%s', (u, problem) => expect(usernameProblem(u)).toBe(problem));
});

describe('search terms', () => {
  it('folds accents and splits the name into words', () => {
    expect(fold('Ëlodie Çağlar')).toBe('elodie caglar');
    expect(nameWords('  José  María-López ')).toEqual(['jose', 'maria', 'lopez']);
    expect(searchTerms({ username: 'jm', name: 'José José' })).toEqual([{ kind: 'U', term: 'jm' }, { kind: 'N', term: 'jose' }]);
  });
});

describe('passwords', () => {
  it('hashes with Argon2id at OWASP\'s minimum and verifies only the right password', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^argon2id\$19456\$2\$1\$/);
    expect(hash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horsE', hash)).toBe(false);
    expect(await hashPassword('correct horse')).not.toBe(hash);
  });
});

it("the e-mail rule is zod's own, written out so the bundles carry none of zod's other regexes", () => {
  expect(EMAIL_REGEX.source).toBe(z.regexes.email.source);
  expect(EMAIL_REGEX.flags).toBe(z.regexes.email.flags);
});
