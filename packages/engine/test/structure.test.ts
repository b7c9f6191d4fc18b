// The engine's areas meet only through the kernel and the ports their readers declare (kernel/ports.ts,
// bound in areas.ts): a file of one area's folder never imports another area's folder. Type-only imports
// count too: a type names the other area's code as much as a value does.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/**
 * Folders every area may import: the kernel, the ports that tie two areas both ways (ports/), the ledger
 * (kept by the kernel: balances and holds are every area's), and the pure helpers.
 */
const SHARED = new Set(['kernel', 'ports', 'ledger', 'calc', 'hash']);

/**
 * Named exceptions, each with its reason. Spot keeps the pairs' registry: a spot market is a pair with its
 * book (spot/market.ts), created together and written in one snapshot section.
 */
const ALLOWED: ReadonlyMap<string, ReadonlySet<string>> = new Map([['spot', new Set(['pairs'])]]);

/** The area folders: every folder of src/ but the shared ones. */
function areaFolders(): string[] {
  return readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory() && !SHARED.has(name));
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) files.push(path);
  }
  return files;
}

const IMPORT = /(?:^|[;\s])(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\s+from\s+)?['"]([^'"]+)['"]/g;

/** Comments go first, so that an import written in an example never counts. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** `lever/handlers.ts -> spot/area.ts` for every import of one area's folder by another's. */
export function crossAreaImports(
  files: readonly { path: string; text: string }[],
  areas: ReadonlySet<string>,
): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    const from = path.split('/')[0] ?? '';
    if (!areas.has(from)) continue;
    for (const match of withoutComments(text).matchAll(IMPORT)) {
      const specifier = match[1] ?? '';
      if (!specifier.startsWith('.')) continue;
      const target = relative(SRC, resolve(SRC, dirname(path), specifier)).split('/');
      const folder = target.length > 1 ? (target[0] ?? '') : '';
      if (folder === '' || folder === from || !areas.has(folder)) continue;
      if (ALLOWED.get(from)?.has(folder)) continue;
      found.push(`${path} -> ${target.join('/')}`);
    }
  }
  return found;
}

describe('engine area boundaries', () => {
  const areas = new Set(areaFolders());
  const files = [...areas].flatMap((area) =>
    sourceFiles(join(SRC, area)).map((path) => ({
      path: relative(SRC, path),
      text: readFileSync(path, 'utf8'),
    })),
  );

  it('finds the areas, among them the pairs and the prices', () => {
    expect(areas).toContain('pairs');
    expect(areas).toContain('spot');
    expect(areas).toContain('lever');
    expect(areas).toContain('prices');
    expect(areas.has('kernel')).toBe(false);
  });

  it('no area imports another area: reads go through the ports the reader declares', () => {
    expect(crossAreaImports(files, areas)).toEqual([]);
  });

  it('flags an import of another area, a type-only one too, and lets the kernel, ports and own files pass', () => {
    const sample = [
      { path: 'lever/handlers.ts', text: "import { spotArea } from '../spot/area.ts';" },
      { path: 'micro/area.ts', text: "import type { SpotQueries } from '../spot/area.ts';" },
      { path: 'micro/handlers.ts', text: "// import { spotArea } from '../spot/area.ts';" },
      {
        path: 'lever/area.ts',
        text: "import { port } from '../kernel/ports.ts';\nimport { x } from './state.ts';",
      },
      { path: 'spot/state.ts', text: "import { SPOT_MARKS } from '../ports/book-and-mark.ts';" },
      { path: 'spot/market.ts', text: "import { Pair } from '../pairs/pair.ts';" },
      { path: 'pairs/pair.ts', text: "import type { Market } from '../spot/market.ts';" },
    ];
    expect(crossAreaImports(sample, new Set(['lever', 'micro', 'spot', 'pairs']))).toEqual([
      'lever/handlers.ts -> spot/area.ts',
      'micro/area.ts -> spot/area.ts',
      'pairs/pair.ts -> spot/market.ts',
    ]);
  });
});
