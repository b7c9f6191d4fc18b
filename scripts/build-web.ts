// `npm start` builds the web app only when what the build reads has changed since the last build: a SHA-256
// over the web package, the shared package it imports, the lockfile and the base TypeScript settings is
// compared with the stamp the last successful build wrote beside its output (packages/web/dist/.build-stamp).
// `npm run build:web` always builds (and writes the stamp too).
//
//   node scripts/build-web.ts           build when the sources differ from the stamp
//   node scripts/build-web.ts --force   build in any case
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the web build reads, relative to the repository root. The engine is not imported by the web app. */
export const WEB_BUILD_INPUTS = [
  'packages/web',
  'packages/shared',
  'package-lock.json',
  'tsconfig.base.json',
];

/** Folders that are outputs or installed packages, never sources. */
const SKIPPED = new Set(['dist', 'node_modules', 'coverage']);

export const STAMP_FILE = '.build-stamp';

async function filesUnder(path: string): Promise<string[]> {
  if (!existsSync(path)) return [];
  const entries = await readdir(path, { withFileTypes: true, recursive: false }).catch(() => null);
  if (entries === null) return [path];
  const files: string[] = [];
  for (const entry of entries) {
    if (SKIPPED.has(entry.name) || entry.name.startsWith('.')) continue;
    const child = join(path, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(child)));
    else if (entry.isFile()) files.push(child);
  }
  return files;
}

/** The hash of every input file's path and content, in a fixed order. */
export async function webSourcesHash(root: string): Promise<string> {
  const hash = createHash('sha256');
  const files: string[] = [];
  for (const input of WEB_BUILD_INPUTS) files.push(...(await filesUnder(join(root, input))));
  for (const file of files.map((path) => relative(root, path).split(sep).join('/')).sort()) {
    hash.update(`${file}\0`);
    hash.update(await readFile(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

export type BuildDecision =
  { build: true; hash: string; reason: 'no build' | 'sources changed' } | { build: false; hash: string };

/** Whether the web app in `root/packages/web/dist` must be built again. */
export async function decideWebBuild(root: string): Promise<BuildDecision> {
  const hash = await webSourcesHash(root);
  const dist = join(root, 'packages/web/dist');
  if (!existsSync(join(dist, 'index.html'))) return { build: true, hash, reason: 'no build' };
  const stamp = (await readFile(join(dist, STAMP_FILE), 'utf8').catch(() => '')).trim();
  return stamp === hash ? { build: false, hash } : { build: true, hash, reason: 'sources changed' };
}

async function main(): Promise<void> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const force = process.argv.includes('--force');
  const decision = await decideWebBuild(root);
  if (!force && !decision.build) {
    process.stdout.write(
      'Web app unchanged since its last build: not rebuilt (npm run build:web forces it).\n',
    );
    return;
  }
  const built = spawnSync('npm', ['run', 'build', '-w', 'packages/web'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
  // The hash of the sources as they were when the build began: a file changed during the build makes the
  // next start build again.
  await writeFile(join(root, 'packages/web/dist', STAMP_FILE), `${decision.hash}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();
