// The opaque cursor of the user lists, the likes, the notifications and the report queues
// (lib/graph/cursor.ts): a sort key `<createdAt>#<id>` written as 17 digits and an id.
import { decodeCursor, encodeCursor } from '../../lib/graph/cursor';
import { ValidationError } from '../../lib/errors';

const ID = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

describe('list cursor', () => {
  it('round-trips a sort key', () => {
    const sk = `2026-11-27T14:46:51.213Z#${ID}`;
    expect(encodeCursor(sk)).toBe(`20261127144651213.${ID}`);
    expect(decodeCursor(encodeCursor(sk))).toBe(sk);
    expect(decodeCursor(`20240229235959999.${ID}`)).toBe(`2024-02-29T23:59:59.999Z#${ID}`);
    // 29 February of any year is a position the pattern can state; it names no item, it only orders.
    expect(decodeCursor(`20250229000000000.${ID}`)).toBe(`2025-02-29T00:00:00.000Z#${ID}`);
  });

  it.each([
    ['month 13', `20261327144651213.${ID}`],
    ['month 00', `20260027144651213.${ID}`],
    ['30 February', `20260230000000000.${ID}`],
    ['31 April', `20260431000000000.${ID}`],
    ['hour 24', `20261127240000000.${ID}`],
    ['minute 60', `20261127236000000.${ID}`],
    ['second 60', `20261127235960000.${ID}`],
    ['all nines', `99999999999999999.${ID}`],
    ['milliseconds, not a date', `08640000000000001.${ID}`],
    ['too few digits', `1732000000000.${ID}`],
    ['a lower-case id', `20261127144651213.${ID.toLowerCase()}`],
  ])('refuses %s with a 400 naming the cursor', (_name, cursor) => {
    let thrown: unknown;
    try { decodeCursor(cursor); } catch (err) { thrown = err; }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).status).toBe(400);
    expect(JSON.stringify((thrown as ValidationError).details)).toContain('cursor');
  });
});
