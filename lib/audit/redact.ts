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
