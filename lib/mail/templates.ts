// Every e-mail the service sends (contract section 16), in one place: per kind, a subject, a
// plain-text part and an HTML part. Each names the app (Aperture) and holds nothing secret but
// its token; a token is shown in a link built from APP_URL (never from a request header) and as
// itself. Values are HTML-escaped in the HTML part. Pure: tests/unit/mail-templates.test.ts
// renders each kind.

export const APP_NAME = 'Aperture';

/** What a message of a kind says. `token`: a kind whose message carries one (lib/mail/tokens.ts). */
interface Template {
  subject: string;
  /** Paragraphs of the message, before the link (plain text; escaped for the HTML part). */
  lines: (data: MailData) => string[];
  /** The page the token's link opens (`<APP_URL><path>?token=...`). */
  link?: { path: string; label: string };
  /** The closing paragraph (plain text). */
  footer: string;
}

/** The values a message shows: the account's username, nothing else of it. */
export interface MailData {
  username?: string;
}

const greeting = (d: MailData) => (d.username ? `Hello @${d.username},` : 'Hello,');
const NOT_YOU = `If this was not you, you can ignore this e-mail.`;
const SECURE = `If this was not you, reset your password at once with "Forgot password" on the ${APP_NAME} sign-in page.`;

export const TEMPLATES = {
  VERIFY_EMAIL: {
    subject: `Confirm your ${APP_NAME} e-mail address`,
    lines: (d) => [greeting(d), `Please confirm that this is the e-mail address of your ${APP_NAME} account. The link is good for 24 hours and for one use.`],
    link: { path: '/verify-email', label: 'Confirm my address' },
    footer: NOT_YOU,
  },
  EMAIL_CHANGE: {
    subject: `Confirm the new e-mail address of your ${APP_NAME} account`,
    lines: (d) => [greeting(d), `You asked to use this address for your ${APP_NAME} account. Your account keeps its old address until you confirm this one. The link is good for 24 hours and for one use.`],
    link: { path: '/verify-email', label: 'Confirm my new address' },
    footer: NOT_YOU,
  },
  PASSWORD_RESET: {
    subject: `Reset your ${APP_NAME} password`,
    lines: (d) => [greeting(d), `Someone asked to reset the password of your ${APP_NAME} account. The link is good for one hour and for one use; resetting signs you out everywhere.`],
    link: { path: '/reset-password', label: 'Choose a new password' },
    footer: `If you did not ask for this, ignore this e-mail: your password stays as it is.`,
  },
  PASSWORD_CHANGED: {
    subject: `Your ${APP_NAME} password was changed`,
    lines: (d) => [greeting(d), `The password of your ${APP_NAME} account was just changed.`],
    footer: SECURE,
  },
  EMAIL_CHANGED: {
    subject: `The e-mail address of your ${APP_NAME} account was changed`,
    lines: (d) => [greeting(d), `Your ${APP_NAME} account no longer uses this e-mail address: a new one was confirmed for it. Nothing more will be sent here.`],
    footer: SECURE,
  },
  TWO_FACTOR_ENABLED: {
    subject: `Two-factor sign-in is on for your ${APP_NAME} account`,
    lines: (d) => [greeting(d), `Two-factor sign-in was just turned on for your ${APP_NAME} account: signing in now asks for a code of your authenticator app (or one of your recovery codes) after the password.`],
    footer: SECURE,
  },
  TWO_FACTOR_DISABLED: {
    subject: `Two-factor sign-in is off for your ${APP_NAME} account`,
    lines: (d) => [greeting(d), `Two-factor sign-in was just turned off for your ${APP_NAME} account: signing in asks only for the password now, and your recovery codes no longer work.`],
    footer: SECURE,
  },
} satisfies Record<string, Template>;

export type MailKind = keyof typeof TEMPLATES;
export const MAIL_KINDS = Object.keys(TEMPLATES) as MailKind[];
export const isMailKind = (v: unknown): v is MailKind => typeof v === 'string' && Object.hasOwn(TEMPLATES, v);

export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&${({ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' } as Record<string, string>)[c]};`);

/** The link of a token: `<appUrl><path>?token=<token>`. */
export const tokenLink = (appUrl: string, path: string, token: string) => `${appUrl.replace(/\/+$/, '')}${path}?token=${encodeURIComponent(token)}`;

/**
 * The message of `kind`. `token` is required by (and only shown in) a kind with a link.
 * `appUrl`: the APP_URL setting (lib/config.ts).
 */
export function renderMail(kind: MailKind, opts: { appUrl: string; data?: MailData; token?: string }): Rendered {
  const t: Template = TEMPLATES[kind];
  const data = opts.data ?? {};
  const lines = t.lines(data);
  const text: string[] = [...lines];
  const html: string[] = lines.map((l) => `<p>${escapeHtml(l)}</p>`);
  if (t.link) {
    if (!opts.token) throw new Error(`The ${kind} e-mail needs its token`);
    const url = tokenLink(opts.appUrl, t.link.path, opts.token);
    text.push(`${t.link.label}: ${url}`, `Or enter this code in the app: ${opts.token}`);
    html.push(
      `<p><a href="${escapeHtml(url)}">${escapeHtml(t.link.label)}</a></p>`,
      `<p>Or enter this code in the app: <code>${escapeHtml(opts.token)}</code></p>`,
    );
  }
  text.push(t.footer, `— ${APP_NAME}`);
  html.push(`<p>${escapeHtml(t.footer)}</p>`, `<p>— ${APP_NAME}</p>`);
  return {
    subject: t.subject,
    text: `${text.join('\n\n')}\n`,
    html: `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(t.subject)}</title></head><body>${html.join('')}</body></html>`,
  };
}
