// Hashtag and mention parsing (contract section 19).
import { hashtagsOf, isTagRun, mentionsOf, normalizeTag, tagQuery } from '../../lib/text/tags';

describe('hashtagsOf', () => {
  it('normalizes by NFKC and Unicode lower case, without folding accents', () => {
    expect(hashtagsOf('#Café #CAFÉ #Cafe #cafe')).toEqual(['café', 'cafe']);
    // A decomposed é (e + U+0301) is the composed one after NFKC.
    expect(hashtagsOf('#Cafe\u0301')).toEqual(['café']);
    // Full-width letters are their ASCII forms after NFKC.
    expect(hashtagsOf('#ＴＯＫＹＯ')).toEqual(['tokyo']);
    expect(normalizeTag('ÀÉÎ')).toBe('àéî');
  });

  it('takes CJK, digits inside and `_`, keeps order of first use and counts each tag once', () => {
    expect(hashtagsOf('#東京 #b2b #snake_case #東京 #B2B')).toEqual(['東京', 'b2b', 'snake_case']);
  });

  it('ends a tag at an emoji or punctuation and starts one right after an emoji', () => {
    expect(hashtagsOf('🔥#fire🔥 #sun, #rain. (#snow)')).toEqual(['fire', 'sun', 'rain', 'snow']);
  });

  it('ignores a # after a letter, digit, mark or _', () => {
    expect(hashtagsOf('a#b 1#c _#d e\u0301#f C#')).toEqual([]);
    expect(hashtagsOf('x #a#b')).toEqual(['a']);
  });

  it('refuses all-digit runs and empty runs, and ignores runs longer than 100 rather than cutting them', () => {
    expect(hashtagsOf('#2024 #١٢٣ # #')).toEqual([]);
    expect(hashtagsOf('#2024a')).toEqual(['2024a']);
    const hundred = 'a'.repeat(100);
    expect(hashtagsOf(`#${hundred}`)).toEqual([hundred]);
    expect(hashtagsOf(`#${hundred}a`)).toEqual([]);
    // Counted as written, in code points: 100 CJK characters are a tag.
    expect(hashtagsOf(`#${'東'.repeat(100)}`)).toEqual(['東'.repeat(100)]);
    expect(isTagRun('a#')).toBe(false);
  });
});

describe('mentionsOf', () => {
  it('finds @names in any case, without trailing dots, each once, in order', () => {
    expect(mentionsOf('hi @Alice and @bob.smith. @ALICE @c_d!')).toEqual(['alice', 'bob.smith', 'c_d']);
  });

  it('ignores an @ after a letter, digit or _, and an @ with no name', () => {
    expect(mentionsOf('mail a@b.com 1@x _@y @ @... (@z)')).toEqual(['z']);
    // Accented letters end the name; an @ after one is no mention.
    expect(mentionsOf('@josé é@x')).toEqual(['jos']);
  });
});

describe('tagQuery', () => {
  it('drops one leading #, normalizes, and tells empty and impossible queries apart', () => {
    expect(tagQuery('#Caf')).toBe('caf');
    expect(tagQuery('#')).toBe('');
    expect(tagQuery('a b')).toBeUndefined();
    expect(tagQuery('##a')).toBeUndefined();
  });
});
