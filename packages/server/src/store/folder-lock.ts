// A lock file holding the owner's process id. An embedded database must have one process at a time; a lock
// left behind by a process that died is recognised (its pid no longer runs) and taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { unlink } from 'node:fs/promises';

/** The folder belongs to another running process (typically the server). */
export class FolderInUseError extends Error {
  readonly owner: number;
  constructor(owner: number, options: ErrorOptions) {
    super(
      `The data folder is in use by process ${owner}${owner === process.pid ? ' (this process)' : ''}. ` +
        'Stop it first, or give this process another DATA_DIR.',
      options,
    );
    this.name = 'FolderInUseError';
    this.owner = owner;
  }
}

export interface FolderLock {
  release(): Promise<void>;
}

/**
 * Takes the lock file at `path`. Synchronously, like reading the migrations (migrate.ts): a starting server
 * takes it while loading its modules, whose file reads an asynchronous call would wait behind.
 */
export async function acquireFolderLock(path: string): Promise<FolderLock> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(path, 'wx');
      try {
        writeSync(fd, String(process.pid));
      } finally {
        closeSync(fd);
      }
      let released = false;
      return {
        release: async () => {
          if (released) return;
          released = true;
          await unlink(path).catch(() => {});
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(readOrEmpty(path), 10);
      if (Number.isInteger(owner) && owner > 0 && processIsRunning(owner)) {
        throw new FolderInUseError(owner, { cause: error });
      }
      try {
        unlinkSync(path);
      } catch {
        // Gone already: the next attempt creates it.
      }
    }
  }
  throw new Error(`Could not take the lock file ${path}`);
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function processIsRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
