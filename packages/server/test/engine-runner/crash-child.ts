// The process the crash test kills. It runs a runner on the store named by its environment and submits
// deposits and orders without pause, 64 at a time, each with its own idempotency key. It prints
// "ack <seq> <key> <code> <projected seq> <snapshots written>" only after submit() resolved, i.e. after the command's batch committed; stdout is
// a pipe, which Node writes synchronously on Linux, so a printed acknowledgement has left this process
// before the next command is submitted.
import type { Command } from '@fairex/engine';
import { createExchangeRunner } from '../../src/exchange-runner.ts';
import { EXCHANGE_RUNNER_RHYTHM } from '../../src/engine-runner/index.ts';
import { DurableLogReadAhead, durableLogFolder } from '../../src/engine-runner/durable-log-files.ts';
import { openStore } from '../../src/store/index.ts';
import { setupCommands, Workload } from '../../bench/workload.ts';

const USERS = 30;
const IN_FLIGHT = 64;

const dataDir = process.env.CRASH_DATA_DIR as string;
// As the server does (main.ts): the embedded store's durable log is read while PGlite opens, and the runner
// opens the log from what was read, so every restart of a killed process goes through that path.
let durableLogReadAhead: DurableLogReadAhead | undefined;
const store = await openStore({
  dataDir,
  ...(process.env.CRASH_DATABASE_URL ? { databaseUrl: process.env.CRASH_DATABASE_URL } : {}),
  ...(process.env.CRASH_SCHEMA ? { schema: process.env.CRASH_SCHEMA } : {}),
  onFolderLocked: () => (durableLogReadAhead = new DurableLogReadAhead(durableLogFolder(dataDir))),
});
// CRASH_SNAPSHOT_MAX_COMMANDS: the exchange's rhythm (snapshots by time no more than once a minute) with the
// size rule at that many commands, so that every snapshot of a short run is one the size rule took.
// Otherwise small intervals, so that the kill also lands around snapshots and checkpoints.
const sizeRule = Number(process.env.CRASH_SNAPSHOT_MAX_COMMANDS ?? 0);
// CRASH_PROJECTOR_DELAY_MS: the projector stage sleeps that long before each transaction, so that it lags
// far behind the journal when the process is killed (with back-pressure loosened to let it).
const projectorDelayMs = Number(process.env.CRASH_PROJECTOR_DELAY_MS ?? 0);
const runner = await createExchangeRunner({
  store,
  logger: { info() {}, warn() {}, error() {} },
  // CRASH_ENGINE_REPLICA=1: hashes and snapshots by the replica (on PGlite, snapshot files).
  engineReplica: process.env.CRASH_ENGINE_REPLICA === '1',
  ...(durableLogReadAhead === undefined ? {} : { durableLogReadAhead }),
  ...(projectorDelayMs > 0
    ? { projectorDelayMs, projectorMaxBatchCommands: 100, projectorMaxLagCommands: 1_000_000 }
    : {}),
  ...(sizeRule > 0
    ? { ...EXCHANGE_RUNNER_RHYTHM, snapshotMaxCommands: sizeRule }
    : { snapshotEvery: 400, checkpointEvery: 100 }),
});
if (runner.engine.ledger.currencies().length === 0) {
  for (const command of setupCommands(USERS)) await runner.submit(command);
}
process.stdout.write('ready\n');

const workload = new Workload(Number(process.env.CRASH_SEED ?? 1), USERS);
let counter = 0;

async function submitForever(): Promise<never> {
  for (;;) {
    const key = `crash-${process.pid}-${counter++}`;
    const command: Command = workload.next(runner.engine);
    const outcome = await runner.submit(command, { idempotencyKey: key });
    const { snapshotsBySize, snapshotsByTime } = runner.stats();
    process.stdout.write(
      `ack ${outcome.seq} ${key} ${outcome.code} ${runner.projectedSeq} ${snapshotsBySize + snapshotsByTime}\n`,
    );
  }
}

await Promise.all(Array.from({ length: IN_FLIGHT }, () => submitForever()));
