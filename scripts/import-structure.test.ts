// The import structure of the packages (issue 15, "done when"): no import cycles inside the engine, the
// server or the web app, and no reply type of the shared API contract declared a second time by the server or
// the web. A small resolver over relative imports: no bundler, no network.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = /\.(ts|tsx|mts)$/;

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** Comments go first, so that an import written in an example never counts. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

// `import x from`, `import {a, b} from`, `export * from`, `export {a} from`, `import './x'`: the modules a
// file needs before it can run. Type-only imports and exports (`import type`, `export type`) are erased when
// compiled and are left out; an `import { type A, b }` still loads the module and counts. A lazy `import()`
// (the route table's screens) loads its module later, after the importer has run, so it is no edge of a
// cycle: a screen may read the table that loads it lazily.
const STATIC = /(?:^|[;\s])(import|export)\s+(type\s+)?(?:[^'"`;]*?\s+from\s+)?['"]([^'"]+)['"]/g;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The relative modules a file loads before it runs (static imports and re-exports). */
export function relativeImports(text: string): string[] {
  const code = withoutComments(text).replace(DYNAMIC, '');
  const found: string[] = [];
  for (const match of code.matchAll(STATIC)) {
    const typeOnly = match[2] !== undefined;
    const specifier = match[3] ?? '';
    if (!typeOnly && specifier.startsWith('.')) found.push(specifier);
  }
  return found;
}

function resolveImport(from: string, specifier: string, known: Set<string>): string | undefined {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

/** Every cycle's members (strongly connected components of more than one file, or a file importing itself). */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  // Iterative Tarjan: the web app's import chains are deep enough to make recursion a risk.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const target = edges[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const members: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          members.push(member);
        } while (member !== frame.node);
        if (members.length > 1 || edges.includes(frame.node)) cycles.push(members.sort());
      }
    }
  }
  return cycles;
}

function importGraph(dir: string): Map<string, string[]> {
  const files = sourceFiles(dir);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = relativeImports(readFileSync(file, 'utf8'))
      .map((specifier) => resolveImport(file, specifier, known))
      .filter((target): target is string => target !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Names of the interfaces and type aliases a file declares (exported or not). */
export function declaredTypes(text: string): string[] {
  const code = withoutComments(text);
  const declaration =
    /^\s*(?:export\s+)?(?:declare\s+)?(?:interface\s+([A-Za-z_$][\w$]*)\s*(?:<|extends\b|\{)|type\s+([A-Za-z_$][\w$]*)\s*(?:<[^=;]*>\s*)?=)/gm;
  return [...code.matchAll(declaration)].map((match) => match[1] ?? match[2] ?? '');
}

describe('the resolver', () => {
  it('reads static value imports and leaves type-only and lazy imports and comments out', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      "import { type C, d } from './c.ts';",
      "export * from './e.ts';",
      "export type { F } from './f.ts';",
      "import './g.css';",
      "const h = () => import('./h.tsx');",
      "// import { x } from './commented.ts';",
      "import { z } from 'zod';",
    ].join('\n');
    expect(relativeImports(text)).toEqual(['./a.ts', './c.ts', './e.ts', './g.css']);
  });

  it('finds a cycle of three and a self-import, and nothing in a tree', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
      ['f', ['d']],
    ]);
    expect(importCycles(graph)).toEqual([['a', 'b', 'c'], ['e']]);
    expect(
      importCycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads declared type names', () => {
    const text = [
      'export interface A {}',
      'type B = 1;',
      'export type Paged<T extends object> = { list: T[] };',
      'interface D extends A {}',
      "export type { C } from './c.ts';",
      'import {',
      '  type E,',
      "} from './e.ts';",
    ].join('\n');
    expect(declaredTypes(text)).toEqual(['A', 'B', 'Paged', 'D']);
  });
});

describe('import structure', () => {
  for (const pkg of ['engine', 'server', 'web']) {
    it(`has no import cycle in packages/${pkg}/src`, () => {
      const graph = importGraph(join(ROOT, 'packages', pkg, 'src'));
      // The resolver finds the imports (a resolver that found none would find no cycle either).
      const edges = [...graph.values()].reduce((count, targets) => count + targets.length, 0);
      expect(edges).toBeGreaterThan(graph.size);
      const cycles = importCycles(graph).map((members) => members.map((file) => relative(ROOT, file)));
      expect(cycles).toEqual([]);
    });
  }

  it('declares each reply type of the shared API contract once: the server and the web import it', () => {
    const contract = new Set(
      sourceFiles(join(ROOT, 'packages', 'shared', 'src', 'api')).flatMap((file) =>
        declaredTypes(readFileSync(file, 'utf8')),
      ),
    );
    expect(contract.size).toBeGreaterThan(0);
    const twice: string[] = [];
    for (const pkg of ['server', 'web']) {
      for (const file of sourceFiles(join(ROOT, 'packages', pkg, 'src'))) {
        for (const name of declaredTypes(readFileSync(file, 'utf8'))) {
          if (contract.has(name)) twice.push(`${relative(ROOT, file)}: ${name}`);
        }
      }
    }
    expect(twice).toEqual([]);
  });
});
