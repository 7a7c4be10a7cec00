// The one place that decides what counts as a secret in a trace log payload.
const SECRET_KEY = /pass(word)?|secret|token|authorization|cookie|api[-_]?key|credential|hash|salt|^code$|recovery|challenge|^otp/i;
export const REDACTED = '[REDACTED]';

/**
 * A deep copy of a JSON-like value with every secret-looking key's value replaced. The `code`
 * of an `error` (the envelope's, VALIDATION_ERROR say) is no two-factor code: it stays.
 */
export function redact(value: unknown, depth = 0, parent = ''): unknown {
  if (depth > 20) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) && !(parent === 'error' && k === 'code') ? REDACTED : redact(v, depth + 1, k);
    return out;
  }
  if (typeof value === 'string' && /^Bearer\s|^eyJ[\w-]+\.[\w-]+\./.test(value)) return REDACTED;
  return value;
}

/** What a refused or failed request's record keeps of its body: its first 4 KiB of text (contract section 9). */
export const REFUSED_BODY_MAX_BYTES = 4096;

/**
 * A refused or failed request's body for its record's payload: its secrets removed first (a cut
 * could end inside a secret's key, which redact would then no longer see); when its JSON text is
 * over 4,096 bytes of UTF-8, the longest start of that text (a string body's JSON text begins with its quote) that fits in them as a string
 * (encodeInto writes whole code points only: none is split), and `truncated`. Terse:
 * every function bundles it, and the largest is at its budget (docs/OPERATIONS.md, "Bundle budget").
 */
export function cutBody(body: unknown): { body: unknown; truncated?: true } {
  const clean = redact(body);
  const text = JSON.stringify(clean);
  const { read } = new TextEncoder().encodeInto(text, new Uint8Array(REFUSED_BODY_MAX_BYTES));
  return read < text.length ? { body: text.slice(0, read), truncated: true } : { body: clean };
}
