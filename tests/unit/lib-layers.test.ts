// The folders of lib/ point one way: no import circle between them (lib/<folder> is a node,
// the top-level lib/*.ts files together are the node `lib`). A circle means two folders each
// own part of the other's business; give the shared piece one owner (move it to the folder
// below, or let the lower folder state the shape it needs, as lib/graph/viewer.ts does for
// the caller) rather than adding the import. Every import counts, `import type` and
// re-exports included: a type shared both ways is a shared piece too.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { ROOT } from '../../scripts/lib/manifests.mjs';

const LIB = join(ROOT, 'lib');

type Graph = Map<string, Map<string, string[]>>;

/**
 * The module specifiers a file imports: import and export ... from, import '...', import(),
 * require(). Comments are dropped first (line comments, then blocks: a line comment may hold
 * a glob's slash-star). Read with patterns rather than the TypeScript compiler, whose load
 * alone would make this test the heaviest of the unit tests; over lib/ it finds what
 * ts.preProcessFile finds.
 */
function importsOf(source: string): string[] {
  const code = source.replace(/(^|[^:'"`])\/\/.*$/gm, '$1').replace(/\/\*[\s\S]*?\*\//g, '');
  return [
    ...[...code.matchAll(/(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/g)].map((m) => m[1]!),
    ...[...code.matchAll(/(?:\bimport|\brequire)\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!),
  ];
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [path] : [];
  });
}

const folderOf = (file: string) => {
  const parts = relative(LIB, file).split(sep);
  return parts.length > 1 ? parts[0]! : 'lib';
};

/** lib's folders and, for each import from one to another, where it is written. */
function folderGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of sources(LIB)) {
    const from = folderOf(file);
    for (const fileName of importsOf(readFileSync(file, 'utf8'))) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName);
      if (!target.startsWith(LIB + sep)) continue;
      const to = folderOf(`${target}.ts`);
      if (to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, edges);
      edges.set(to, [...(edges.get(to) ?? []), `${relative(ROOT, file)} imports ${fileName}`]);
    }
  }
  return graph;
}

/** The circles of a graph: one per strongly connected part of more than one node, as a path a -> b -> ... -> a. */
function circles(graph: Graph): string[][] {
  const nodes = [...new Set([...graph.keys(), ...[...graph.values()].flatMap((e) => [...e.keys()])])].sort();
  const next = (n: string) => [...(graph.get(n)?.keys() ?? [])].sort();
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const parts: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter); low.set(v, counter); counter++;
    stack.push(v); onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      let w: string;
      do { w = stack.pop()!; onStack.delete(w); part.push(w); } while (w !== v);
      if (part.length > 1) parts.push(part.sort());
    }
  };
  for (const n of nodes) if (!index.has(n)) visit(n);
  // Name each part by the shortest circle through each of its folders (each circle once).
  const shortestBack = (start: string, inPart: Set<string>): string[] => {
    const back = new Map<string, string>();
    const queue = [start];
    while (queue.length) {
      const v = queue.shift()!;
      for (const w of next(v).filter((x) => inPart.has(x))) {
        if (w === start) {
          const path = [v];
          while (path[0] !== start) path.unshift(back.get(path[0]!)!);
          return [...path, start];
        }
        if (!back.has(w)) { back.set(w, v); queue.push(w); }
      }
    }
    throw new Error(`no way back to ${start}`);
  };
  const named = new Map<string, string[]>();
  for (const part of parts) {
    for (const start of part) {
      const circle = shortestBack(start, new Set(part));
      // One name per circle, whichever folder it was found from: begin at its first folder by name.
      const ring = circle.slice(0, -1);
      const first = ring.indexOf([...ring].sort()[0]!);
      const canonical = [...ring.slice(first), ...ring.slice(0, first), ring[first]!];
      named.set(canonical.join(' -> '), canonical);
    }
  }
  return [...named.values()];
}

describe('the folders of lib/', () => {
  it('import one another one way: no circle', () => {
    const graph = folderGraph();
    const found = circles(graph).map((circle) => ({
      circle: circle.join(' -> '),
      imports: circle.slice(0, -1).flatMap((from, i) => graph.get(from)!.get(circle[i + 1]!)!),
    }));
    expect(found).toEqual([]);
  });

  it('the graph is read: folders that depend on others are seen to', () => {
    const graph = folderGraph();
    expect([...graph.get('graph')!.keys()]).toEqual(expect.arrayContaining(['users', 'db']));
    expect([...graph.get('auth')!.keys()]).toEqual(expect.arrayContaining(['graph', 'users']));
  });

  it('reads every form of import, and none in a comment', () => {
    const source = [
      "import { a } from '../graph/a';", "import type { B } from '../auth/b';", "import * as c from '../c';",
      "import {\n  d,\n  e,\n} from '../users/d';", "export { f } from '../feed/f';", "import '../side';",
      "const g = require('../aws/g');", "const h = await import('../media/h');",
      "// import { x } from '../x';", "/* see lib/functions/*/functions.json */ const s = 'https://example.com';",
    ].join('\n');
    expect(importsOf(source).sort()).toEqual(['../auth/b', '../aws/g', '../c', '../feed/f', '../graph/a', '../media/h', '../side', '../users/d']);
  });

  it('a circle is found and named, a chain is not', () => {
    const g = (edges: [string, string][]): Graph => {
      const out: Graph = new Map();
      for (const [a, b] of edges) out.set(a, new Map([...(out.get(a) ?? new Map<string, string[]>()), [b, [`${a} imports ${b}`]]]));
      return out;
    };
    expect(circles(g([['auth', 'graph'], ['graph', 'users'], ['users', 'db']]))).toEqual([]);
    expect(circles(g([['auth', 'graph'], ['graph', 'users'], ['users', 'auth'], ['users', 'db']]))).toEqual([['auth', 'graph', 'users', 'auth']]);
    expect(circles(g([['account', 'graph'], ['graph', 'account']]))).toEqual([['account', 'graph', 'account']]);
  });
});
