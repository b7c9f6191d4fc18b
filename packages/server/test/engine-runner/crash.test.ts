// Kill-and-restart: a child process serves a runner under continuous load and is killed with SIGKILL
// mid-stream, twice (the second run recovers what the first left). Then this process recovers the same
// store and checks that nothing acknowledged was lost: every acknowledged command is in the journal at its
// seq with its idempotency key, the recorded state hashes verify, the invariants hold, every currency sums
// to zero, the projections equal a rebuild, and retrying any acknowledged key applies nothing new.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeEnvelope } from '@fairex/engine';
import type { Command } from '@fairex/engine';
import { createExchangeRunner, rebuildExchangeProjections } from '../../src/exchange-runner.ts';
import { forEachBatchAfter } from '../../src/engine-runner/journal.ts';
import type { OpenStoreOptions, Store } from '../../src/store/index.ts';
import { memoryLogger, open, storeTargets } from './test-stores.ts';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
const PINNED_NODE = fileURLToPath(new URL('../../../../node_modules/.bin/node', import.meta.url));

/** The project pins Node 24 (type stripping); use it when this process runs an older one. */
function nodeBinary(): string {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= 24 || !existsSync(PINNED_NODE) ? process.execPath : PINNED_NODE;
}

interface Ack {
  seq: number;
  key: string;
  code: number;
}

/**
 * How long the child may go without acknowledging anything. PGlite has been seen, once in many runs, to spin
 * forever in XLogFlush on the first commit after a restart from a SIGKILL (a liveness fault of the embedded
 * database, recorded in docs/operations.md; nothing acknowledged was lost). The test then says so and runs
 * the scenario again on a new folder instead of waiting for its own timeout.
 */
const STALL_MS = 30_000;

class ChildStalled extends Error {}

/** Runs the child until it has acknowledged `killAfter` commands, then SIGKILLs it and waits for its exit. */
async function runAndKill(
  options: OpenStoreOptions,
  killAfter: number,
  seed: number,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Ack[]> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CRASH_DATA_DIR: options.dataDir,
    CRASH_SEED: String(seed),
    ...extraEnv,
  };
  if (options.databaseUrl) env.CRASH_DATABASE_URL = options.databaseUrl;
  if (options.schema) env.CRASH_SCHEMA = options.schema;
  const child = spawn(nodeBinary(), [CHILD], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const acks: Ack[] = [];
  let stalled = false;
  let stallTimer = setTimeout(() => {
    stalled = true;
    child.kill('SIGKILL');
  }, STALL_MS);
  const lines = createInterface({ input: child.stdout });
  const streamEnded = new Promise<void>((resolve) => lines.on('close', () => resolve()));
  lines.on('line', (line) => {
    const [word, seq, key, code] = line.split(' ');
    if (word !== 'ack' && word !== 'ready') return;
    clearTimeout(stallTimer);
    stallTimer = setTimeout(() => {
      stalled = true;
      child.kill('SIGKILL');
    }, STALL_MS);
    if (word !== 'ack') return;
    acks.push({ seq: Number(seq), key: key as string, code: Number(code) });
    if (acks.length === killAfter) {
      clearTimeout(stallTimer);
      child.kill('SIGKILL');
    }
  });
  const exit = await exited;
  clearTimeout(stallTimer);
  // Lines already in the pipe when the child died are still delivered; wait for the end of the stream.
  await streamEnded;
  if (exit.signal !== 'SIGKILL') throw new Error(`the child ended on its own (${exit.code}): ${stderr}`);
  if (stalled)
    throw new ChildStalled(`the child acknowledged nothing for ${STALL_MS} ms after ${acks.length}`);
  expect(acks.length).toBeGreaterThanOrEqual(killAfter);
  return acks;
}

async function journalKeys(store: Store): Promise<Map<number, string | undefined>> {
  const keys = new Map<number, string | undefined>();
  await forEachBatchAfter(store, 0, (batch) => {
    batch.envelopes.forEach((text, index) => {
      const envelope = JSON.parse(text) as { seq: number; idempotencyKey?: string };
      expect(envelope.seq).toBe(batch.firstSeq + index);
      keys.set(envelope.seq, envelope.idempotencyKey);
    });
  });
  return keys;
}

for (const target of storeTargets()) {
  describe(`crash recovery on ${target.name}`, () => {
    afterAll(() => target.cleanup());

    it(
      'loses no acknowledged command when the process is killed mid-stream',
      { timeout: 180_000 },
      async () => {
        let options = await target.fresh();
        let acks: Ack[];
        try {
          acks = [...(await runAndKill(options, 1_500, 1)), ...(await runAndKill(options, 1_500, 2))];
        } catch (error) {
          if (!(error instanceof ChildStalled)) throw error;
          console.warn(`crash test on ${target.name}: ${error.message}; running the scenario again`);
          options = await target.fresh();
          acks = [...(await runAndKill(options, 1_500, 3)), ...(await runAndKill(options, 1_500, 4))];
        }

        const store = await open(options);
        const runner = await createExchangeRunner({ store, logger: memoryLogger() });
        const { recovery, lastSeq } = runner.stats();
        // Recovery started from a snapshot written by a killed process and verified its hash, the checkpoints
        // after it and the invariants (it throws otherwise); the rebuild below verifies every checkpoint.
        expect(recovery.snapshotSeq).toBeGreaterThan(0);
        expect(recovery.verifiedSeq).toBeGreaterThanOrEqual(recovery.snapshotSeq);

        const keys = await journalKeys(store);
        expect(keys.size).toBe(lastSeq);
        for (const ack of acks) expect(keys.get(ack.seq)).toBe(ack.key);
        expect(new Set(acks.map((ack) => ack.key)).size).toBe(acks.length);

        const sums = new Map<number, bigint>();
        for (const account of runner.engine.ledger.accounts()) {
          sums.set(
            account.currencyId,
            (sums.get(account.currencyId) ?? 0n) + account.available + account.locked,
          );
        }
        expect([...sums.values()]).toEqual([0n, 0n]);

        // A client retrying any acknowledged command gets the first outcome back; nothing is applied twice.
        const accountsBefore = runner.engine.ledger.accounts();
        const journaled = new Map<string, Command>();
        await forEachBatchAfter(store, 0, (batch) => {
          for (const text of batch.envelopes) {
            const envelope = decodeEnvelope(text);
            if (envelope.idempotencyKey) journaled.set(envelope.idempotencyKey, envelope.command);
          }
        });
        const accepted = acks.filter((ack) => ack.code === 0).slice(-50);
        expect(accepted.length).toBeGreaterThan(0);
        for (const ack of accepted) {
          const retry = await runner.submit(journaled.get(ack.key) as Command, { idempotencyKey: ack.key });
          expect(retry).toMatchObject({ duplicate: true, originalSeq: ack.seq });
        }
        expect(runner.engine.ledger.accounts()).toEqual(accountsBefore);
        await runner.close();

        const live = await store.query('select * from account_log order by seq, event_index');
        const rebuild = await rebuildExchangeProjections(store);
        expect(rebuild.lastSeq).toBe(runner.stats().lastSeq);
        const rebuilt = await store.query('select * from account_log order by seq, event_index');
        expect(rebuilt.rows).toEqual(live.rows);
        await store.close();
      },
    );
    it(
      'loses nothing when killed after a journal long enough for several snapshots by size',
      { timeout: 180_000 },
      async () => {
        // The exchange's rhythm: by time, a snapshot needs 100,000 commands and a minute of command time,
        // which this run never reaches; every snapshot it takes is the size rule's, each 1,500 commands.
        const sizeRule = 1_500;
        const env = { CRASH_SNAPSHOT_MAX_COMMANDS: String(sizeRule) };
        let options = await target.fresh();
        let acks: Ack[];
        try {
          acks = await runAndKill(options, 7_000, 5, env);
        } catch (error) {
          if (!(error instanceof ChildStalled)) throw error;
          console.warn(`crash test on ${target.name}: ${error.message}; running the scenario again`);
          options = await target.fresh();
          acks = await runAndKill(options, 7_000, 6, env);
        }

        const store = await open(options);
        const snapshots = await store.query<{ seq: bigint }>(
          'select seq from engine_snapshots where seq > 0 order by seq',
        );
        const seqs = snapshots.rows.map((row) => Number(row.seq));
        // Three kept (the default), at least 1,500 commands apart: all taken by the size rule.
        expect(seqs.length).toBe(3);
        for (let index = 1; index < seqs.length; index++) {
          expect((seqs[index] as number) - (seqs[index - 1] as number)).toBeGreaterThanOrEqual(sizeRule);
        }
        expect(seqs[0]).toBeGreaterThanOrEqual(sizeRule * 2);

        const runner = await createExchangeRunner({ store, logger: memoryLogger() });
        const { recovery, lastSeq } = runner.stats();
        expect(recovery.snapshotSeq).toBe(seqs.at(-1));
        // Recovery replays less than the size rule plus the largest batch (a snapshot waits for a batch that
        // takes everything parked).
        expect(recovery.replayedCommands).toBeLessThan(sizeRule + 2_000);
        const keys = await journalKeys(store);
        expect(keys.size).toBe(lastSeq);
        for (const ack of acks) expect(keys.get(ack.seq)).toBe(ack.key);
        await runner.close();
        await store.close();
      },
    );
  });
}
