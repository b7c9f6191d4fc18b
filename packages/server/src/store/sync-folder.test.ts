import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syncFolder } from './sync-folder.ts';

const folders: string[] = [];

afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

describe('syncFolder', () => {
  it('fsyncs a folder with nested files and folders on its own thread', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'fairex-sync-'));
    folders.push(folder);
    await mkdir(join(folder, 'base', '1'), { recursive: true });
    for (let index = 0; index < 20; index++) {
      await writeFile(join(folder, 'base', '1', String(index)), `page ${index}`);
    }
    await writeFile(join(folder, 'PG_VERSION'), '17');
    await expect(syncFolder(folder)).resolves.toBeUndefined();
  });

  it('rejects with the error code of a folder that does not exist', async () => {
    const missing = join(tmpdir(), `fairex-sync-missing-${process.pid}-${Date.now()}`);
    await expect(syncFolder(missing)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
