// The thread the liabilities tree is built on (builder.ts starts one per snapshot): it receives the
// snapshot's amounts page by page, builds the tree (tree.ts), answers the root, then hands out the rows to
// store one chunk per `next` asked, and exits when told. A refused amount or sum answers `refused` with the
// SumTreeError's code before anything is handed out, so nothing of such a tree is ever stored.
import { parentPort } from 'node:worker_threads';
import { SumTreeError } from '@fairex/engine/log/sum-tree.ts';
import { buildSnapshotTree } from './tree.ts';
import type { AmountsPage, TreeRows } from './tree.ts';
import type { ToTreeWorker } from './builder.ts';

const port = parentPort;
if (port === null) throw new Error('the liabilities tree builder runs as a worker thread');

let start: Extract<ToTreeWorker, { type: 'start' }> | undefined;
const pages: AmountsPage[] = [];
let rows: TreeRows | undefined;

port.on('message', (message: ToTreeWorker) => {
  try {
    if (message.type === 'start') {
      start = message;
    } else if (message.type === 'page') {
      pages.push({ users: message.users, amounts: message.amounts });
    } else if (message.type === 'build') {
      if (start === undefined) throw new Error('build before start');
      const built = buildSnapshotTree(start.secret, start.snapshotId, start.columns, pages);
      pages.length = 0;
      rows = built.rows;
      port.postMessage({ type: 'built', root: built.root });
    } else if (message.type === 'next') {
      if (rows === undefined) throw new Error('next before build');
      const next = rows.next();
      port.postMessage(next.done === true ? { type: 'end' } : { type: 'rows', ...next.value });
    }
  } catch (error) {
    if (error instanceof SumTreeError)
      port.postMessage({ type: 'refused', code: error.code, message: error.message });
    else
      port.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
});
