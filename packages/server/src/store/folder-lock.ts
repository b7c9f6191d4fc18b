// A lock file holding the owner's process id. An embedded database must have one process at a time; a lock
// left behind by a process that died is recognised (its pid no longer runs) and taken over.
import { open, readFile, unlink } from 'node:fs/promises';

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

export async function acquireFolderLock(path: string): Promise<FolderLock> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
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
      const owner = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(owner) && owner > 0 && processIsRunning(owner)) {
        throw new FolderInUseError(owner, { cause: error });
      }
      await unlink(path).catch(() => {});
    }
  }
  throw new Error(`Could not take the lock file ${path}`);
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
