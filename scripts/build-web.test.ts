// The decision `npm start` makes before starting: build the web app only when what the build reads changed.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decideWebBuild, STAMP_FILE } from './build-web.ts';

let root: string;

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text);
}

/** What a successful build leaves: its output and the stamp of the sources it read. */
async function built(): Promise<void> {
  const decision = await decideWebBuild(root);
  await put('packages/web/dist/index.html', '<!doctype html>');
  await put(`packages/web/dist/${STAMP_FILE}`, `${decision.hash}\n`);
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'fairex-build-web-'));
  await put('packages/web/src/main.tsx', 'export {};');
  await put('packages/web/index.html', '<div id="root"></div>');
  await put('packages/shared/src/decimal.ts', 'export const scale = 8;');
  await put('packages/engine/src/engine.ts', 'export {};');
  await put('packages/server/src/main.ts', 'export {};');
  await put('package-lock.json', '{"lockfileVersion":3}');
  await put('tsconfig.base.json', '{}');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('building the web app on start', () => {
  it('builds when there is no build', async () => {
    expect(await decideWebBuild(root)).toMatchObject({ build: true, reason: 'no build' });
  });

  it('skips the build when nothing it reads changed', async () => {
    await built();
    expect(await decideWebBuild(root)).toMatchObject({ build: false });
    // The server and the engine are not part of the web app; the build output is not its input.
    await put('packages/server/src/main.ts', 'export const changed = true;');
    await put('packages/engine/src/engine.ts', 'export const changed = true;');
    await put('packages/web/dist/assets/index-abc.js', 'console.log(1)');
    await put('packages/web/node_modules/.vite/deps.json', '{}');
    expect(await decideWebBuild(root)).toMatchObject({ build: false });
  });

  it.each([
    ['a web source', 'packages/web/src/main.tsx'],
    ['a new web file', 'packages/web/src/extra.ts'],
    ['the shared package', 'packages/shared/src/decimal.ts'],
    ['the lockfile', 'package-lock.json'],
    ['the base TypeScript settings', 'tsconfig.base.json'],
  ])('builds again when %s changes', async (_name, path) => {
    await built();
    await put(path, 'changed');
    expect(await decideWebBuild(root)).toMatchObject({ build: true, reason: 'sources changed' });
  });

  it('builds again when the output is gone or has no stamp', async () => {
    await built();
    await rm(join(root, 'packages/web/dist', STAMP_FILE));
    expect(await decideWebBuild(root)).toMatchObject({ build: true, reason: 'sources changed' });
    await built();
    await rm(join(root, 'packages/web/dist/index.html'));
    expect(await decideWebBuild(root)).toMatchObject({ build: true, reason: 'no build' });
  });
});
