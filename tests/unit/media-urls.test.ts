// Which profile image URLs are one of our uploads (a replaced one is deleted, so only the
// exact 320-variant URL of this stage's storage may match).
import { mediaOfUrl } from '../../lib/media/use';
import { newMediaSecret, publicUrl, variantKey } from '../../lib/media/storage';

const ID = '01JABCDEFGHJKMNPQRSTVWXYZ0';
const SECRET = newMediaSecret();

it('recognises the 320 variant URL of a media of this storage', () => {
  for (const ext of ['jpg', 'png', 'webp']) expect(mediaOfUrl(publicUrl(variantKey(ID, SECRET, '320', ext)))).toEqual({ id: ID, secret: SECRET, ext });
});

it('leaves every other URL alone', () => {
  for (const url of [
    publicUrl(variantKey(ID, SECRET, '1080', 'jpg')),
    publicUrl(variantKey(ID, SECRET, 'original', 'jpg')),
    publicUrl(`uploads/${ID}`),
    publicUrl(`media/${ID}/320.jpg`),
    publicUrl(`media/${ID}/${SECRET}/320.gif`),
    publicUrl(`media/${ID}/${SECRET}/320.jpg/../x`),
    publicUrl(`media/${ID}/${SECRET.slice(1)}/320.jpg`),
    `https://cdn.example.test/media/${ID}/${SECRET}/320.jpg`,
    `${publicUrl(variantKey(ID, SECRET, '320', 'jpg'))}?x=1`,
    '',
  ]) expect({ url, m: mediaOfUrl(url) }).toEqual({ url, m: undefined });
});
