// The lists in docs/ARCHITECTURE.md and docs/adding-an-area.md are the code's, as the configuration table
// in docs/operations.md is (config.test.ts): each list sits between `<!-- <name>:start -->` and
// `<!-- <name>:end -->` and must name exactly what the code has:
// - server-folders: every folder of packages/server/src, each marked area, core or routes;
// - server-areas (adding-an-area.md): the folders ARCHITECTURE.md marks as areas;
// - app-decorations: every `decorate('<name>'` of packages/server/src (tests left out);
// - contract-modules: every module of packages/shared/src/api;
// - web-features: every folder of packages/web/src/features;
// - area-shape (adding-an-area.md): each file the example area's listing names exists in its folder.
// The engine's areas are left out here: their folders are being renamed, and the engine's own tests
// check that every area in packages/engine/src/areas.ts is installed.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const architecture = read('docs/ARCHITECTURE.md');
const addingAnArea = read('docs/adding-an-area.md');

/** The text between a list's markers; fails when the markers are missing. */
export function listText(doc: string, name: string): string {
  const start = doc.indexOf(`<!-- ${name}:start -->`);
  const end = doc.indexOf(`<!-- ${name}:end -->`);
  if (start < 0 || end < start) throw new Error(`no list "${name}" in the document`);
  return doc.slice(start, end);
}

/** Every `code span` of the text matching the pattern, sorted. */
export function codeSpans(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(/`([^`\n]+)`/g)]
    .map((match) => match[1] as string)
    .filter((span) => pattern.test(span))
    .sort();
}

const folders = (path: string) =>
  readdirSync(join(ROOT, path))
    .filter((name) => statSync(join(ROOT, path, name)).isDirectory())
    .map((name) => `${name}/`)
    .sort();

function sourceFiles(path: string): string[] {
  return readdirSync(join(ROOT, path), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => join(path, name));
}

/** The server-folders table's rows: folder and kind. */
function serverFolderRows(): { folder: string; kind: string }[] {
  return listText(architecture, 'server-folders')
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [folder = '', kind = ''] = line
        .split('|')
        .slice(1, 3)
        .map((cell) => cell.trim());
      return { folder: folder.replace(/`/g, ''), kind };
    });
}

describe('the lists in the docs match the code', () => {
  it('ARCHITECTURE.md lists every folder of packages/server/src, each an area, core or routes', () => {
    const rows = serverFolderRows();
    expect(rows.map((row) => row.folder).sort()).toEqual(folders('packages/server/src'));
    for (const row of rows) expect(['area', 'core', 'routes'], row.folder).toContain(row.kind);
  });

  it("adding-an-area.md's server areas are the folders ARCHITECTURE.md marks as areas", () => {
    const areas = serverFolderRows()
      .filter((row) => row.kind === 'area')
      .map((row) => row.folder)
      .sort();
    expect(codeSpans(listText(addingAnArea, 'server-areas'), /\/$/)).toEqual(areas);
  });

  it("ARCHITECTURE.md lists every decoration of the server's app", () => {
    const decorated = new Set<string>();
    for (const file of sourceFiles('packages/server/src'))
      for (const match of read(file).matchAll(/\.decorate\(\s*'(\w+)'/g)) decorated.add(`app.${match[1]}`);
    expect(codeSpans(listText(architecture, 'app-decorations'), /^app\.\w+$/)).toEqual([...decorated].sort());
  });

  it('ARCHITECTURE.md lists every module of the shared contract', () => {
    const modules = readdirSync(join(ROOT, 'packages/shared/src/api'))
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .sort();
    expect(codeSpans(listText(architecture, 'contract-modules'), /\.ts$/)).toEqual(modules);
  });

  it('ARCHITECTURE.md lists every feature of the web app', () => {
    expect(codeSpans(listText(architecture, 'web-features'), /\/$/)).toEqual(
      folders('packages/web/src/features'),
    );
  });

  it("adding-an-area.md's example area names only files that exist", () => {
    const block = listText(addingAnArea, 'area-shape');
    const folder = /^(packages\/server\/src\/\w+)\/$/m.exec(block)?.[1];
    expect(folder).toBeDefined();
    const named = [...block.matchAll(/^ {2}(\S+\.ts)\s/gm)].map((match) => match[1] as string);
    const alsoNamed = [...block.matchAll(/\s([\w-]+\.ts) the same/g)].map((match) => match[1] as string);
    expect(named.length).toBeGreaterThan(3);
    for (const file of [...named, ...alsoNamed])
      expect(statSync(join(ROOT, folder as string, file), { throwIfNoEntry: false }), file).toBeDefined();
    for (const route of block.match(/packages\/server\/src\/routes\/\S+\.ts/g) ?? [])
      expect(statSync(join(ROOT, route), { throwIfNoEntry: false }), route).toBeDefined();
  });

  it('refuses a document whose list markers are missing', () => {
    expect(() => listText('no markers here', 'server-folders')).toThrow(/no list "server-folders"/);
    expect(() => listText('<!-- x:end --> <!-- x:start -->', 'x')).toThrow(/no list "x"/);
  });
});
