// The replica's thread (see replica.ts): an engine of its own, fed the committed batches' journal text in seq
// order, which hashes and serialises its state when asked, so that the event loop serving requests never
// walks the whole state. It checks every outcome code against the one the live engine reported.
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { decodeEnvelopeBytes } from '@fairex/engine';
import type { Engine, EngineCreateOptions, Envelope } from '@fairex/engine';
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
          replay(live, kit.decodeEnvelope(request.texts[index] as string), request.codes[index]);
        }
        return;
      }
      case 'feedLines': {
        const live = loaded();
        const { lines, codes } = request;
        let start = 0;
        for (let index = 0; index < codes.length; index++) {
          const newline = lines.indexOf(NEWLINE, start);
          const end = newline < 0 ? lines.length : newline;
          if (newline < 0 && index < codes.length - 1)
            throw new Error('the replica was fed fewer lines than codes');
          replay(live, decodeEnvelopeBytes(lines, start, end), codes[index]);
          start = end + 1;
        }
        if (start !== lines.length + 1) throw new Error('the replica was fed more lines than codes');
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

const NEWLINE = 0x0a;

/** Replays the next envelope and checks its code against the live engine's. */
function replay(live: Engine, envelope: Envelope, expected: number | undefined): void {
  if (envelope.seq !== live.lastSeq + 1) {
    throw new Error(`the replica is at seq ${live.lastSeq} and was fed seq ${envelope.seq}`);
  }
  // The replica's events are never read: replayed without building them.
  const code = live.replay(envelope);
  if (expected !== undefined && code !== expected) {
    throw new Error(`seq ${envelope.seq} gave code ${code} on the replica, ${expected} live`);
  }
}

function loaded(): Engine {
  if (engine === undefined) throw new Error('the replica was fed before it was loaded');
  return engine;
}
