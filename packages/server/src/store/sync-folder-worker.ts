// The thread syncFolder (sync-folder.ts) starts: fsyncs the folder it is given, answers null or the failure,
// and exits.
import { parentPort, workerData } from 'node:worker_threads';
import { syncFolderSync } from './sync-folder.ts';

const port = parentPort;
if (port === null) throw new Error('the folder sync runs as a worker thread');
try {
  syncFolderSync(workerData as string);
  port.postMessage(null);
} catch (error) {
  const { message, code } = error as NodeJS.ErrnoException;
  port.postMessage({ message, code });
}
