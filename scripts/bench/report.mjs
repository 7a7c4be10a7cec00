// The readable side of the benchmark: the tables and the target checks of issue 7.
import { median } from './measure.mjs';
import { LOGIN_UNKNOWN, LOGIN_WRONG, scenarioKey } from './scenarios.mjs';

// Suggestions: the row measures a call that ranks (at most one per caller every 10 minutes,
// lib/graph/suggest.ts): authentication's reads with the cached item, 2 rounds of sampling and
// ranking, then the ranking's Put. A served call takes 2 (the session row, whose mean issue 19
// targets).
const ROUND_TRIPS = { default: 2, 'GET /posts/explore': 4, 'GET /users/suggested': 4 };
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const fmt = (n) => (n === undefined ? '-' : Number.isInteger(n) ? String(n) : n.toFixed(1));

export function endpointTable(result, scenarios) {
  const lines = [];
  const cols = ['p50Ms', 'p95Ms', 'bareP50Ms', 'dbCalls', 'dbRoundTrips', 'rcu', 'floorRcu', 'wcu'];
  const head = ['p50', 'p95', 'bare', 'reqs', 'trips', 'RCU', 'floor', 'WCU'];
  for (const scale of result.scales) {
    lines.push('', `Scale ${scale.name}: ${scale.users} users, ${scale.posts} posts (${scale.items} items loaded in ${(scale.loadMs / 1000).toFixed(1)} s)`);
    lines.push(`${pad('endpoint', 40)}${head.map((h) => lpad(h, 8)).join('')}`);
    for (const s of scenarios) {
      const key = scenarioKey(s);
      const e = scale.endpoints[key];
      if (!e) continue;
      const name = s.variant ? `  (${s.variant})` : s.route;
      if (e.status !== 'ok') lines.push(`${pad(name, 40)}  ${e.status}${e.message ? `: ${e.message}` : ''}`);
      else lines.push(`${pad(name, 40)}${cols.map((c) => lpad(fmt(e[c]), 8)).join('')}`);
    }
  }
  return lines.join('\n');
}

/** Where a bundle's bytes come from, in KB: the design card's libraries, our code (lib/, functions/). */
const PARTS = ['zod', 'jose', 'middy', 'app'];
const kb = (n) => ((n ?? 0) / 1024).toFixed(1);

const TLS_NOTE = 'Cold starts over TLS (`--init-tls`), as functions reach DynamoDB in AWS.';

export function bundleTable(result) {
  const lines = [result.initMode === 'tls' ? `\n${TLS_NOTE}` : '', `${pad('bundle', 24)}${lpad('bytes', 10)}${lpad('x base', 8)}${lpad('initMs', 9)}${lpad('x base', 8)}${lpad('require', 9)}${lpad('1st req', 9)}${lpad('x base', 8)}${lpad('DB reqs', 9)}${PARTS.map((p) => lpad(`${p} KB`, 10)).join('')}`];
  const b = result.baseline;
  const row = (name, x) => `${pad(name, 24)}${lpad(x.bytes, 10)}${lpad((x.bytes / b.bytes).toFixed(2), 8)}${lpad(fmt(x.initMs), 9)}${lpad((x.initMs / b.initMs).toFixed(2), 8)}${lpad(fmt(x.requireMs), 9)}${lpad(fmt(x.firstMs), 9)}${lpad((x.firstMs / b.firstMs).toFixed(2), 8)}${lpad(x.requests ?? '', 9)}${PARTS.map((p) => lpad(kb(x.parts?.[p]), 10)).join('')}`;
  lines.push(row('(baseline)', b));
  for (const [name, x] of Object.entries(result.bundles)) lines.push(row(name, x));
  return lines.join('\n');
}

/** The PASS/FAIL lines of the issue's targets (a) to (e). */
export function checks(result, scenarios) {
  const out = [];
  const line = (ok, text) => out.push(`${ok === null ? 'SKIP' : ok ? 'PASS' : 'FAIL'} ${text}`);
  const ok = (e) => e && e.status === 'ok';
  const byName = Object.fromEntries(result.scales.map((s) => [s.name, s]));
  // Second forms of a route (by username) are checked against their own round trips only.
  const variants = scenarios.filter((s) => s.variant);
  const reads = scenarios.filter((s) => s.kind === 'read' && !s.variant);
  const writes = scenarios.filter((s) => s.kind === 'write' && !s.variant);

  // (a) RCU flat from 1x to 10x on the seed's reads.
  const small = byName['1x'];
  const big = byName['10x'];
  if (small && big) {
    const seedReads = reads.filter((s) => s.seed);
    const present = seedReads.filter((s) => ok(small.endpoints[s.route]) && ok(big.endpoints[s.route]));
    const bad = present.filter((s) => {
      const a = small.endpoints[s.route].rcu;
      const b = big.endpoints[s.route].rcu;
      return Math.abs(b - a) > 0.1 * Math.max(a, 0.5);
    }).map((s) => `${s.route} ${small.endpoints[s.route].rcu} -> ${big.endpoints[s.route].rcu}`);
    const missing = seedReads.length - present.length;
    line(present.length ? !bad.length : null,
      `(a) RCU at 10x within 10% of 1x on ${present.length}/${seedReads.length} seed reads${missing ? ` (${missing} missing)` : ''}${bad.length ? `: ${bad.join('; ')}` : ''}`);
  } else line(null, '(a) needs scales 1x and 10x');

  // (b) Sequential round trips of reads.
  const tripsBad = [];
  let measured = 0;
  for (const scale of result.scales) {
    for (const s of reads) {
      const e = scale.endpoints[s.route];
      if (!ok(e)) continue;
      measured++;
      const max = ROUND_TRIPS[s.route] ?? ROUND_TRIPS.default;
      if (e.dbRoundTrips > max) tripsBad.push(`${s.route}@${scale.name} ${e.dbRoundTrips} > ${max}`);
    }
  }
  line(measured ? !tripsBad.length : null, `(b) reads within 2 round trips (explore 4; suggested 4 when it ranks, 2 when served)${tripsBad.length ? `: ${tripsBad.join('; ')}` : ''}`);
  if (variants.length) {
    const seen = [];
    const bad = [];
    for (const scale of result.scales) {
      for (const s of variants) {
        const e = scale.endpoints[scenarioKey(s)];
        if (!ok(e)) continue;
        seen.push(`${scenarioKey(s)}@${scale.name} ${e.dbRoundTrips}`);
        if (e.dbRoundTrips > s.trips) bad.push(`${scenarioKey(s)}@${scale.name} ${e.dbRoundTrips} > ${s.trips}`);
      }
    }
    line(seen.length ? !bad.length : null, `(b) second forms within their own round trips (by username: the claim first, 3)${bad.length ? `: ${bad.join('; ')}` : ''}`);
  }

  // (h) An unknown identifier and a wrong password take the same time (contract section 3).
  for (const scale of result.scales) {
    const wrong = scale.endpoints[`POST /auth/login (${LOGIN_WRONG})`];
    const unknown = scale.endpoints[`POST /auth/login (${LOGIN_UNKNOWN})`];
    if (!ok(wrong) || !ok(unknown)) continue;
    const gap = Math.abs(wrong.p50Ms - unknown.p50Ms);
    line(gap <= 10, `(h) ${scale.name}: login p50, wrong password ${fmt(wrong.p50Ms)} ms, unknown identifier ${fmt(unknown.p50Ms)} ms: ${fmt(gap)} ms apart (target <= 10)`);
  }

  // (c) Overhead of the handler over its bare requests.
  for (const scale of result.scales) {
    const ratios = scenarios.filter((s) => !s.variant).map((s) => scale.endpoints[s.route])
      .filter((e) => ok(e) && e.bareP50Ms > 0).map((e) => e.p50Ms / e.bareP50Ms);
    const m = median(ratios);
    line(ratios.length ? m <= 1.25 : null, `(c) ${scale.name}: median over ${ratios.length} endpoints of p50/bareP50 = ${m.toFixed(2)} (target <= 1.25)`);
  }

  // (d) Bundles against the baseline.
  if (result.baseline && Object.keys(result.bundles).length) {
    const b = result.baseline;
    // Bytes and requireMs within 1.25x of the baseline's (issue 19). Issue 47 restates the cold
    // start: each function's overhead (its cold first answer minus the same request's warm p50,
    // scripts/bench/overhead.mjs) within 1.5x of the baseline's; issue 19's target 4 (the first
    // answer within 2x) mixed the cold start with a route's own work and is withdrawn. The
    // /docs page (Swagger UI embedded) is a static page, not an API function, with a budget of
    // its own (tests/deploy/bundle-size.test.ts).
    const api = Object.entries(result.bundles).filter(([n]) => n !== 'docsPage');
    const over = (field, factor) => api.filter(([, x]) => x[field] !== undefined && b[field] !== undefined && x[field] > factor * b[field])
      .map(([n, x]) => `${n} ${(x[field] / b[field]).toFixed(2)}x`);
    const big = over('bytes', 1.25);
    line(!big.length, `(d) bundle bytes <= 1.25x baseline (${b.bytes} B; docsPage apart)${big.length ? `: ${big.join(', ')}` : ''}`);
    if (b.requireMs === undefined) line(null, '(d) requireMs and the cold-start overhead not measured (--no-init)');
    else {
      const slowRequire = over('requireMs', 1.25);
      line(!slowRequire.length, `(d) requireMs (median over rounds) <= 1.25x baseline (${fmt(b.requireMs)} ms)${slowRequire.length ? `: ${slowRequire.join(', ')}` : ''}`);
      if (b.overheadMs === undefined) line(null, '(d) cold-start overhead: the baseline\'s warm median not measured');
      else {
        const measured = api.filter(([, x]) => x.overheadMs !== undefined);
        const unmatched = api.filter(([, x]) => x.firstMs !== undefined && x.overheadMs === undefined)
          .map(([n, x]) => (x.status >= 200 && x.status < 300) || x.status === undefined ? n : `${n} (cold answer ${x.status})`);
        // A ratio to a baseline overhead of 0 or less is no ratio: any positive overhead is over.
        const heavy = measured.filter(([, x]) => x.overheadMs > 1.5 * Math.max(b.overheadMs, 0))
          .map(([n, x]) => `${n} ${fmt(x.overheadMs)} ms${b.overheadMs > 0 ? ` (${(x.overheadMs / b.overheadMs).toFixed(2)}x)` : ''}`);
        line(measured.length ? !heavy.length : null, `(d) cold-start overhead (first cold answer - warm p50) <= 1.5x baseline (${fmt(b.overheadMs)} ms${result.initMode === 'tls' ? ', over TLS' : ''}${result.initNodeFlags?.length ? `, node ${result.initNodeFlags.join(' ')}` : ''}) on ${measured.length} functions${unmatched.length ? ` (not compared: ${unmatched.join(', ')})` : ''}${heavy.length ? `: ${heavy.join(', ')}` : ''}`);
      }
    }
  } else line(null, '(d) bundles not measured');

  // (g) Issue 19, target 3: like, unlike, bookmark, unbookmark, follow and unfollow (by id)
  // answer after one round trip besides the caller's own read.
  {
    const WRITES = ['POST /posts/like/{post_id}', 'POST /posts/unlike/{post_id}', 'POST /posts/bookmark/{post_id}', 'POST /posts/unbookmark/{post_id}',
      'POST /users/follow/{identifier} (by id)', 'POST /users/unfollow/{identifier} (by id)'];
    const bad = [];
    let seen = 0;
    for (const scale of result.scales) {
      for (const key of WRITES) {
        const e = scale.endpoints[key];
        if (!e || !ok(e)) continue;
        seen++;
        if (e.dbRoundTrips > 2) bad.push(`${key}@${scale.name} ${e.dbRoundTrips} round trips`);
      }
    }
    line(seen ? !bad.length : null, `(g) like, unlike, bookmark, unbookmark, follow and unfollow by id in 2 round trips (the caller's read, the write)${bad.length ? `: ${bad.join('; ')}` : ''}`);
  }

  // (f) Issue 19: suggestions per call over a session, and the user lists near their floor.
  {
    const LISTS = ['GET /users/{identifier}/followers', 'GET /users/{identifier}/following', 'GET /posts/{post_id}/likes', 'GET /users/blocked', 'GET /users/search'];
    const bad = [];
    let seen = 0;
    for (const scale of result.scales) {
      for (const [key, e] of Object.entries(scale.endpoints)) {
        if (!ok(e)) continue;
        if (key === 'GET /users/suggested (session of 10 calls)') {
          seen++;
          if (e.dbCalls > 10 || e.rcu > 50) bad.push(`${key}@${scale.name} ${e.dbCalls} requests, ${e.rcu} RCU`);
        } else if (LISTS.some((l) => key === l || key.startsWith(`${l} (`))) {
          seen++;
          if (e.dbCalls > 8 || (e.floorRcu !== undefined && e.rcu > 2 * e.floorRcu)) bad.push(`${key}@${scale.name} ${e.dbCalls} requests, ${e.rcu} RCU (floor ${e.floorRcu})`);
        }
      }
    }
    line(seen ? !bad.length : null, `(f) suggestions <= 10 requests and 50 RCU per call over a session; user lists <= 8 requests and RCU <= 2x floor${bad.length ? `: ${bad.join('; ')}` : ''}`);
  }

  // (e) WCU per write endpoint.
  out.push('(e) WCU per write endpoint:');
  for (const s of writes) {
    const cells = result.scales.map((scale) => {
      const e = scale.endpoints[s.route];
      return `${scale.name} ${ok(e) ? fmt(e.wcu) : e?.status ?? '-'}`;
    });
    out.push(`     ${pad(s.route, 44)}${cells.join('   ')}`);
  }
  return out.join('\n');
}

/**
 * The endpoint and bundle tables in Markdown, as docs/PERFORMANCE.md shows them
 * (`--markdown <file>`), so that the page is pasted from a run, never retyped.
 */
export function markdownTables(result) {
  const num = (n) => (n === undefined ? '-' : Number.isInteger(n) ? String(n) : (Math.round(n * 10) / 10).toFixed(1));
  const out = ['| endpoint | scale | p50 ms | p95 ms | bare p50 ms | requests | round trips | RCU | floor RCU | WCU |', '|---|---|---|---|---|---|---|---|---|---|'];
  for (const key of Object.keys(result.scales[0]?.endpoints ?? {})) {
    result.scales.forEach((scale, i) => {
      const e = scale.endpoints[key];
      const name = i === 0 ? `\`${key}\`` : '';
      if (!e || e.status !== 'ok') out.push(`| ${name} | ${scale.name} | ${e?.status ?? 'missing'} | | | | | | | |`);
      else out.push(`| ${name} | ${scale.name} | ${num(e.p50Ms)} | ${num(e.p95Ms)} | ${num(e.bareP50Ms)} | ${e.dbCalls} | ${e.dbRoundTrips} | ${num(e.rcu)} | ${e.floorRcu === undefined ? '' : num(e.floorRcu)} | ${num(e.wcu)} |`);
    });
  }
  const b = result.baseline;
  if (b?.initMs !== undefined) {
    if (result.initMode === 'tls') out.push('', TLS_NOTE);
    out.push('', `| bundle | bytes | × baseline | initMs | × baseline | require ms | first request ms | × baseline | its DynamoDB requests | ${PARTS.map((p) => `${p === 'app' ? 'our code' : p} KB`).join(' | ')} |`, `|---|---|---|---|---|---|---|---|---|${PARTS.map(() => '---|').join('')}`);
    const row = (name, x) => `| ${name} | ${x.bytes.toLocaleString('en-US')} | ${(x.bytes / b.bytes).toFixed(2)} | ${num(x.initMs)} | ${(x.initMs / b.initMs).toFixed(2)} | ${num(x.requireMs)} | ${num(x.firstMs)} | ${(x.firstMs / b.firstMs).toFixed(2)} | ${x.requests ?? ''} | ${PARTS.map((p) => kb(x.parts?.[p])).join(' | ')} |`;
    out.push(row('baseline (one GetItem)', b));
    for (const [name, x] of Object.entries(result.bundles)) out.push(row(`\`${name}\``, x));
  }
  return `${out.join('\n')}\n`;
}
