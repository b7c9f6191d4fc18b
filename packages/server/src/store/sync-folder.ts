// fsync for the embedded store, whose own file layer never flushes (see engine-runner/durable-log.ts).
import { closeSync, fsyncSync, openSync, readdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** fsync of a file or a folder (a folder's fsync makes the names in it durable). */
export async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** syncPath on the calling thread, blocking it. */
export function syncPathSync(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * fsyncs every file and folder under `folder` on the calling thread, blocking it: files first, then the
 * folders, deepest first. Files that vanish meanwhile (the store recycles its write-ahead log) are skipped.
 */
export function syncFolderSync(folder: string): void {
  const entries = readdirSync(folder, { withFileTypes: true, recursive: true });
  for (const entry of entries) {
    if (entry.isFile()) syncUnlessVanished(join(entry.parentPath, entry.name));
  }
  const folders = [folder, ...entries.filter((e) => e.isDirectory()).map((e) => join(e.parentPath, e.name))];
  for (const path of folders.reverse()) syncUnlessVanished(path);
}

function syncUnlessVanished(path: string): void {
  try {
    syncPathSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * syncFolderSync on a worker thread of its own, which exits when done. A PGlite folder holds about 1,300
 * files; done with the thread pool's promises, three per file, its sync took 120 to 215 ms of the main
 * thread's CPU, after every snapshot. The worker's calls block only the worker, one file at a time.
 */
export function syncFolder(folder: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const worker = new Worker(new URL('./sync-folder-worker.ts', import.meta.url), { workerData: folder });
    let answered = false;
    worker.once('message', (failure: { message: string; code?: string } | null) => {
      answered = true;
      if (failure === null) resolve();
      else reject(Object.assign(new Error(failure.message), { code: failure.code }));
    });
    worker.once('error', (error) => {
      answered = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the folder sync's thread exited with code ${code} before answering`));
    });
  });
}
