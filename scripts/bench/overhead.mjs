// Cold-start overhead (issue 47, item 3): what a cold start adds to a request, apart from the
// work the request does. A function's overhead is its first answer in a fresh process (the
// median `firstMs` over rounds) minus the same request's warm p50 in the same run (its endpoint
// row on the first data set, where the cold requests were noted); the baseline's is its cold
// first answer minus its own warm median, measured in process the same way. Issue 19's
// target 4 (first answer within 2x the baseline's) mixed the cold start with the route's work
// (a login's scrypt, a feed's seven reads) and is withdrawn.
import { median } from './measure.mjs';

const shapeOf = (route) => route.replace(/ \(.*\)$/, '').replace(/\{[^}]*\}/g, '{}');

/**
 * The warm row of a bundle's cold request: on the first scale, the first endpoint row of its
 * route (scenario order, as bench.mjs notes the cold events: the by-id or plain form before a
 * variant), or undefined when the route has none (the docs functions).
 */
export function warmRowOf(result, route) {
  const scale = result.scales?.[0];
  if (!scale || !route) return undefined;
  const key = Object.keys(scale.endpoints).find((k) => shapeOf(k) === shapeOf(route));
  const e = key && scale.endpoints[key];
  return e && e.status === 'ok' ? { key, ...e } : undefined;
}

const round1 = (n) => Math.round(n * 10) / 10;

/** Whether a bundle's cold request succeeded (2xx); a result without the status (older runs) is taken as it is. */
export const coldSucceeded = (x) => x.status === undefined || (x.status >= 200 && x.status < 300);

/**
 * `overheadMs` of the baseline (from `baseline.warmP50Ms`) and of every bundle with a cold
 * first answer and a warm row; returns a copy of the result with them set (and `warmP50Ms`,
 * `warmRoute` on each bundle, to show where its figure came from).
 */
export function withOverheads(result) {
  const out = { ...result, bundles: { ...result.bundles } };
  const b = result.baseline;
  if (b && b.firstMs !== undefined && b.warmP50Ms !== undefined) out.baseline = { ...b, overheadMs: round1(b.firstMs - b.warmP50Ms) };
  for (const [name, x] of Object.entries(result.bundles ?? {})) {
    // A cold request answered otherwise than with success did not do the warm row's work (a
    // scenario whose fresh targets ran out gives its cold starts an empty request): no overhead.
    if (x.firstMs === undefined || !coldSucceeded(x)) continue;
    const warm = warmRowOf(result, x.route);
    if (!warm) continue;
    out.bundles[name] = { ...x, warmP50Ms: warm.p50Ms, warmRoute: warm.key, overheadMs: round1(x.firstMs - warm.p50Ms) };
  }
  return out;
}

/** The baseline's warm median: its handler called in process, `warmup` calls then `iterations` timed. */
export async function warmMedian(handler, event, { warmup, iterations }) {
  const times = [];
  for (let k = 0; k < warmup + iterations; k++) {
    const t0 = performance.now();
    await handler(event(), {});
    if (k >= warmup) times.push(performance.now() - t0);
  }
  return round1(median(times));
}

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

/** One line per function: cold first answer, warm p50, overhead, its ratio to the baseline's. */
export function overheadTable(result) {
  const b = result.baseline;
  if (b?.overheadMs === undefined) return '';
  const lines = [`${pad('cold-start overhead', 24)}${lpad('1st cold', 10)}${lpad('warm p50', 10)}${lpad('overhead', 10)}${lpad('x base', 8)}`];
  const row = (name, x) => `${pad(name, 24)}${lpad(x.firstMs.toFixed(1), 10)}${lpad((x.warmP50Ms ?? 0).toFixed(1), 10)}${lpad(x.overheadMs.toFixed(1), 10)}${lpad((x.overheadMs / b.overheadMs).toFixed(2), 8)}`;
  lines.push(row('(baseline)', b));
  for (const [name, x] of Object.entries(result.bundles)) if (x.overheadMs !== undefined) lines.push(row(name, x));
  return lines.join('\n');
}
