import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The web app shows recorded figures only: no outcome, price, yield, progress or counter may come from a
// random draw in the browser (docs/products.md; the template jittered prices and yields on screen). This test
// reads every source file of the app and refuses any source of randomness. An identifier that needs no
// meaning (none today) would be listed in ALLOWED with its file and the reason.

const SOURCE_ROOT = join(import.meta.dirname, '..');

// Built from parts so that this file does not match itself.
const FORBIDDEN: readonly RegExp[] = [
  new RegExp(`\\bMath\\s*\\.\\s*${'random'}\\b`),
  new RegExp(`\\bMath\\s*\\[\\s*['"\`]${'random'}['"\`]\\s*\\]`),
  new RegExp(`\\b${'getRandom'}Values\\b`),
  new RegExp(`\\b${'random'}UUID\\b`),
  new RegExp(`\\b${'random'}(?:Int|Bytes|Fill)\\b`),
  new RegExp(`from\\s+['"](?:seedrandom|random-js|uuid|nanoid|lodash/${'random'}|lodash/shuffle)['"]`),
];

/** Files allowed a match, with the reason: none. */
const ALLOWED: ReadonlyMap<string, string> = new Map();

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(?:ts|tsx|js|jsx|mjs)$/.test(entry.name) ? [path] : [];
  });
}

export function randomnessIn(text: string): string[] {
  return FORBIDDEN.filter((pattern) => pattern.test(text)).map(String);
}

describe('no client-side randomness', () => {
  it('recognises every form it forbids', () => {
    const samples = [
      'const x = Math.' + 'random();',
      "Math['" + "random']()",
      'crypto.getRandom' + 'Values(buffer)',
      'crypto.random' + 'UUID()',
      "import { nanoid } from '" + "nanoid'",
    ];
    for (const sample of samples) expect(randomnessIn(sample)).not.toEqual([]);
    expect(randomnessIn('const price = item.ico_price; // a random remark')).toEqual([]);
  });

  it('finds none in the web app', () => {
    const files = sourceFiles(SOURCE_ROOT);
    expect(files.length).toBeGreaterThan(100);
    const found = files
      .map((file) => ({ file: relative(SOURCE_ROOT, file), hits: randomnessIn(readFileSync(file, 'utf8')) }))
      .filter(({ file, hits }) => hits.length > 0 && !ALLOWED.has(file));
    expect(found).toEqual([]);
  });
});
