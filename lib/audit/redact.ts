// The one place that decides what counts as a secret in a trace log payload.
const SECRET_KEY = /pass(word)?|secret|token|authorization|cookie|api[-_]?key|credential|hash|salt/i;
export const REDACTED = '[REDACTED]';

/** A deep copy of a JSON-like value with every secret-looking key's value replaced. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 20) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) ? REDACTED : redact(v, depth + 1);
    return out;
  }
  if (typeof value === 'string' && /^Bearer\s|^eyJ[\w-]+\.[\w-]+\./.test(value)) return REDACTED;
  return value;
}

/** What a refused or failed request's record keeps of its body: its first 4 KiB of text (contract section 9). */
export const REFUSED_BODY_MAX_BYTES = 4096;

/**
 * A request body for a refused or failed request's record: with its secrets removed first (a
 * cut could end inside a secret's key, which redact would then no longer see), then, when its
 * JSON text is longer than `maxBytes` of UTF-8, that text's first `maxBytes` bytes as a string,
 * cut before a code point that would not fit whole. `cut` says whether it was.
 */
export function cutBody(body: unknown, maxBytes = REFUSED_BODY_MAX_BYTES): { body: unknown; cut: boolean } {
  const clean = redact(body);
  const text = typeof clean === 'string' ? clean : JSON.stringify(clean);
  const bytes = Buffer.from(text ?? '', 'utf8');
  if (bytes.length <= maxBytes) return { body: clean, cut: false };
  let end = maxBytes;
  // bytes[end] is the first byte left out: a continuation byte (10xxxxxx) means its code point began before it.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { body: bytes.subarray(0, end).toString('utf8'), cut: true };
}
