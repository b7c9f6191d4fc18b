// The replica's thread (see replica.ts): an engine of its own, fed the committed batches' journal text in seq
// order, which hashes and serialises its state when asked, so that the event loop serving requests never
// walks the whole state. It checks every outcome code against the one the live engine reported.
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import type { Engine, EngineCreateOptions } from '@fairex/engine';
import { engineKit } from './engine-kit.ts';
import type { ReplicaReply, ReplicaRequest } from './replica.ts';
import { writeSnapshotFileSync } from './snapshot-files.ts';

const kit = engineKit((workerData as { engineOptions: EngineCreateOptions }).engineOptions);
let engine: Engine | undefined;
const port = parentPort;
if (port === null) throw new Error('the replica runs as a worker thread');

function reply(message: ReplicaReply): void {
  (port as NonNullable<typeof port>).postMessage(message);
}

port.on('message', (request: ReplicaRequest) => {
  try {
    switch (request.type) {
      case 'load':
        engine = request.body === null ? kit.create() : kit.restore(request.body);
        return;
      case 'feed': {
        const live = loaded();
        for (let index = 0; index < request.texts.length; index++) {
          const envelope = kit.decodeEnvelope(request.texts[index] as string);
          if (envelope.seq !== live.lastSeq + 1) {
            throw new Error(`the replica is at seq ${live.lastSeq} and was fed seq ${envelope.seq}`);
          }
          // The replica's events are never read: replayed without building them.
          const code = live.replay(envelope);
          const expected = request.codes[index];
          if (expected !== undefined && code !== expected) {
            throw new Error(`seq ${envelope.seq} gave code ${code} on the replica, ${expected} live`);
          }
        }
        return;
      }
      case 'hash':
      case 'snapshot': {
        const live = loaded();
        if (live.lastSeq !== request.seq) {
          throw new Error(`the replica is at seq ${live.lastSeq}, not ${request.seq}`);
        }
        const body = live.snapshot();
        const hash = createHash('sha256').update(body, 'utf8').digest('hex');
        if (request.type === 'hash') {
          reply({ type: 'hash', id: request.id, seq: request.seq, hash });
        } else if (request.folder === undefined) {
          reply({ type: 'snapshot', id: request.id, seq: request.seq, hash, body });
        } else {
          // Written and flushed here, so that the text never crosses to the main thread. A failed write (a
          // full disk, say) fails this snapshot only: the replica's state is as good as before.
          let written: { file: string; bytes: number };
          try {
            written = writeSnapshotFileSync(request.folder, request.seq, hash, body);
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            reply({
              type: 'refused',
              id: request.id,
              message: `the snapshot file was not written: ${message}`,
            });
            return;
          }
          reply({ type: 'snapshot', id: request.id, seq: request.seq, hash, ...written });
        }
        return;
      }
    }
  } catch (error) {
    reply({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
});

function loaded(): Engine {
  if (engine === undefined) throw new Error('the replica was fed before it was loaded');
  return engine;
}
