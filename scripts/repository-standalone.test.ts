// The repository stands alone: a clone has everything its documents and sources point to. No tracked file
// names a document kept outside it (a specification folder beside the repository, a design brief, a path
// on some machine), and every relative link of a Markdown page leads to a file of the repository.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

const TEXT_FILE = /\.(md|ts|tsx|js|mjs|cjs|json|sql|css|html|ya?ml|sh)$|^\.ci\/|(^|\/)\.[a-z]+rc$/;

/** Names of things a clone does not have. */
const OUTSIDE = [
  { rule: 'a folder beside the repository', pattern: /\.\.\/shared(?![\w-])/ },
  { rule: 'the specification folder', pattern: /\bshared\/spec\b/ },
  { rule: 'a design brief', pattern: /\bDESIGN(\.md|\s*§|\s+section)/ },
  { rule: 'a path on a development machine', pattern: /(^|[\s'"`(])\/(work|home|Users)\/[A-Za-z]/ },
];

function trackedFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' });
  return listed
    .split('\0')
    .filter((file) => file !== '' && TEXT_FILE.test(file) && file !== 'package-lock.json')
    .filter((file) => existsSync(join(ROOT, file)));
}

/** Relative link targets of a Markdown page: `[text](target)`, without web addresses or anchors. */
export function relativeLinks(markdown: string): string[] {
  const targets: string[] = [];
  for (const match of markdown.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = (match[1] ?? '').split('#')[0] ?? '';
    if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    targets.push(target);
  }
  return targets;
}

/** What in `text` names something outside the repository, as "rule: excerpt" lines. */
export function outsideReferences(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    for (const { rule, pattern } of OUTSIDE) {
      if (pattern.test(line)) found.push(`${rule}: ${line.trim().slice(0, 120)}`);
    }
  }
  return found;
}

describe('the repository stands alone', () => {
  it('recognises what it refuses', () => {
    expect(outsideReferences('Specifications live in `../shared/spec`.')).toHaveLength(2);
    expect(outsideReferences('// budget of DESIGN.md section 6')).toHaveLength(1);
    expect(outsideReferences('(DESIGN §2)')).toHaveLength(1);
    expect(outsideReferences("const spec = '/work/shared/x';")).toHaveLength(1);
    expect(outsideReferences("import { x } from '@fairex/shared';\nconst a = '../shared-thing';")).toEqual(
      [],
    );
    expect(relativeLinks('[a](docs/a.md) [b](https://x.org) [c](#top) [d](../e.md#part)')).toEqual([
      'docs/a.md',
      '../e.md',
    ]);
  });

  const files = trackedFiles();

  it('finds the tracked files', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('packages/server/src/main.ts');
  });

  it('names no file kept outside it', () => {
    const self = relative(ROOT, import.meta.filename)
      .split(sep)
      .join('/');
    const found = files
      .filter((file) => file !== self)
      .flatMap((file) =>
        outsideReferences(readFileSync(join(ROOT, file), 'utf8')).map((hit) => `${file}: ${hit}`),
      );
    expect(found).toEqual([]);
  });

  it('links from its Markdown pages only to its own files', () => {
    const broken: string[] = [];
    for (const file of files.filter((name) => name.endsWith('.md'))) {
      for (const target of relativeLinks(readFileSync(join(ROOT, file), 'utf8'))) {
        const path = resolve(ROOT, dirname(file), decodeURIComponent(target));
        const inside = path === ROOT || path.startsWith(`${ROOT}${sep}`);
        if (!inside || !existsSync(path)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
