// Rebuilds the projections from the journal: empties them and re-derives every row by replaying every
// journaled command through a fresh engine. Replay is deterministic, so the rows equal the ones written live;
// a test holds it to that. Run it while no runner writes to the database (start-up or maintenance).
import type { Command, EngineEvent } from '@fairex/engine';
import type { Store } from '../store/index.ts';
import { engineKit } from './engine-kit.ts';
import type { ExchangeKit } from './engine-kit.ts';
import { RecoveryError } from './errors.ts';
import { forEachBatchAfter, genesisSnapshot } from './journal.ts';
import { recordProjectedSeq } from './progress.ts';
import type { Projector } from './projector.ts';
import type { CommittedEntry } from './types.ts';
import { stateHashOf } from './types.ts';

export interface RebuildResult {
  commands: number;
  lastSeq: number;
  stateHash: string;
}

/**
 * One transaction: readers see the old projections until the rebuilt ones replace them whole. The replay
 * starts from the genesis snapshot (the empty engine with its creation options); `kit` only matters for a
 * journal that has none.
 */
export async function rebuildProjections(
  store: Pick<Store, 'transaction' | 'kind'>,
  projectors: readonly Projector<Command, EngineEvent>[],
  kit: ExchangeKit = engineKit(),
): Promise<RebuildResult> {
  return store.transaction(async (tx) => {
    const tables = projectors.flatMap((projector) => projector.tables);
    if (tables.length > 0) await tx.query(`truncate ${tables.join(', ')}`);
    const genesis = await genesisSnapshot(tx);
    const engine = genesis ? kit.restore(genesis.body) : kit.create();
    let commands = 0;
    await forEachBatchAfter(tx, 0, async (batch) => {
      const entries: CommittedEntry<Command, EngineEvent>[] = [];
      for (const text of batch.envelopes) {
        const envelope = kit.decodeEnvelope(text);
        if (envelope.seq !== engine.lastSeq + 1 && engine.lastSeq === 0) {
          throw new RecoveryError(
            `the journal before seq ${envelope.seq} was compacted (archived or deleted): a rebuild needs all of it`,
          );
        }
        if (envelope.seq !== engine.lastSeq + 1) {
          throw new RecoveryError(`the journal jumps from seq ${engine.lastSeq} to ${envelope.seq}`);
        }
        entries.push({ envelope, outcome: engine.apply(envelope) });
      }
      if (batch.stateHash !== null && stateHashOf(kit, engine) !== batch.stateHash) {
        throw new RecoveryError(`replay does not reach the state hash recorded at seq ${batch.lastSeq}`);
      }
      for (const projector of projectors) await projector.project(entries, tx);
      commands += entries.length;
    });
    await recordProjectedSeq(tx, engine.lastSeq);
    return { commands, lastSeq: engine.lastSeq, stateHash: stateHashOf(kit, engine) };
  });
}
