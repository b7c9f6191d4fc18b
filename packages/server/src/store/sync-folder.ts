// fsync for the embedded store, whose own file layer never flushes (see engine-runner/durable-log.ts).
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** fsync of a file or a folder (a folder's fsync makes the names in it durable). */
export async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * fsyncs every file and folder under `folder`, one at a time (the thread pool also serves the log's own
 * fdatasync, which callers wait for). Files that vanish meanwhile (the store recycles its write-ahead log)
 * are skipped.
 */
export async function syncFolder(folder: string): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    try {
      await syncPath(join(entry.parentPath, entry.name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  const folders = [folder, ...entries.filter((e) => e.isDirectory()).map((e) => join(e.parentPath, e.name))];
  for (const path of folders.reverse()) {
    try {
      await syncPath(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
