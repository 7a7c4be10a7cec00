// Every e-mail's rendering (lib/mail/templates.ts): a subject, a plain-text and an HTML part,
// the app's name, and for a kind with a token the link from APP_URL and the token itself, and
// nothing else secret.
import { MAIL_KINDS, renderMail, TEMPLATES, tokenLink, type MailKind } from '../../lib/mail/templates';
import { TOKEN_OF } from '../../lib/mail/tokens';

const APP = 'https://app.example.test/';
const TOKEN = '01M8KGQNYMB54G5B7XWAVKGGBZ.qVgF4cpcC_Mn4smEU13ZsfTK4Up-UEUuqp0D7RrK6sM';
const LINKS: Partial<Record<MailKind, string>> = { VERIFY_EMAIL: '/verify-email', EMAIL_CHANGE: '/verify-email', PASSWORD_RESET: '/reset-password' };

describe.each(MAIL_KINDS)('%s', (kind) => {
  const withToken = TOKEN_OF[kind] !== undefined;
  const m = renderMail(kind, { appUrl: APP, data: { username: 'ada' }, token: withToken ? TOKEN : undefined });

  it('has a subject, a text and an HTML part, each naming Aperture', () => {
    expect(m.subject).toContain('Aperture');
    expect(m.text).toContain('Aperture');
    expect(m.html).toMatch(/^<!doctype html>.*Aperture.*<\/html>$/s);
    expect(m.text).toContain('@ada');
  });

  if (withToken) {
    it('shows its token in a link built from APP_URL and as itself, in both parts', () => {
      const url = `https://app.example.test${LINKS[kind]}?token=${TOKEN}`;
      expect(tokenLink(APP, LINKS[kind]!, TOKEN)).toBe(url);
      expect(m.text).toContain(url);
      expect(m.html).toContain(`href="${url}"`);
      expect(m.text).toContain(`code in the app: ${TOKEN}`);
      expect(m.html).toContain(`<code>${TOKEN}</code>`);
    });
    it('cannot be rendered without its token', () => {
      expect(() => renderMail(kind, { appUrl: APP })).toThrow(/token/);
    });
  } else {
    it('carries no link and no token', () => {
      expect(TEMPLATES[kind]).not.toHaveProperty('link');
      expect(m.text).not.toContain('token=');
      expect(m.html).not.toContain('href=');
    });
  }
});

it('escapes what it shows in the HTML part', () => {
  const m = renderMail('PASSWORD_CHANGED', { appUrl: APP, data: { username: '<b>"x"&' } });
  expect(m.html).toContain('@&lt;b&gt;&quot;x&quot;&amp;');
  expect(m.html).not.toContain('<b>"x"');
});
