// The writer of the start-up benchmark's long journal: on a data folder the real server has already
// created, it runs the app as the server does, without the live market (the engine runner with the
// settings of its environment, snapshot rules included; candles and tickers folded and flushed from the
// trades as they commit), submits COMMANDS seeded demo-market commands (BTC/USDT, 64 in flight), prints
// "done <lastSeq> <snapshotsBySize> <snapshotsByTime> <lastSnapshotSeq> <snapshot KB> <snapshot ms>
// <refused as busy>" (the snapshot figures: one snapshot of the state written, text and hash, which stalls
// the event loop that long; the last, submissions refused because the projector was too far behind, which
// it sent again) and waits to be killed with SIGKILL, so that nothing is written at close.
//
// NO_SNAPSHOTS=1 (with SNAPSHOT_EVERY_COMMANDS=0 and SNAPSHOT_EVERY_MB=0) also stops the time rule: the
// runner's clock stands still, so no minute of command time ever passes and every command written is one a
// restart replays (the stamped time never goes back, so commands take the time of the last one recovered).
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { RunnerOverloadedError } from '../src/engine-runner/index.ts';
import { Workload } from './workload.ts';

const BTC = 1;
const USDT = 3;
const USERS = 200;
/** Users far above the demo accounts' ids. */
const FIRST_USER = 1_000_000;
/** The demo catalogue's BTC/USDT. */
const DEMO_MARKET = { quoteCurrencyId: USDT, marketId: 1, firstUserId: FIRST_USER };
const IN_FLIGHT = 64;

const config = loadConfig();
const total = Number(process.env.COMMANDS ?? 200_000);
const app = await buildApp({
  config,
  logger: false,
  ...(process.env.NO_SNAPSHOTS === '1' ? { clock: () => 0 } : {}),
});
await app.ready();
const runner = app.runner;
for (let userId = FIRST_USER; userId < FIRST_USER + USERS; userId++) {
  await runner.submit({ type: 'deposit', userId, currencyId: BTC, amount: 1_000n * 100_000_000n });
  await runner.submit({ type: 'deposit', userId, currencyId: USDT, amount: 100_000_000n * 1_000_000n });
}
const workload = new Workload(Number(process.env.SEED ?? 1), USERS, DEMO_MARKET);
let submitted = 0;
/** Commands refused as busy (the projector PROJECTOR_MAX_LAG behind the journal) and sent again. */
let refusedBusy = 0;
async function submitLoop(): Promise<void> {
  while (submitted < total) {
    submitted++;
    const command = workload.next(runner.engine);
    // Refused as busy, a client waits a moment and sends it again; nothing of it was journaled.
    for (;;) {
      try {
        await runner.submit(command);
        break;
      } catch (error) {
        if (!(error instanceof RunnerOverloadedError)) throw error;
        refusedBusy++;
        await sleep(10);
      }
    }
  }
}
await Promise.all(Array.from({ length: IN_FLIGHT }, () => submitLoop()));
// What one snapshot of the state written costs the event loop: the engine's text and its hash.
const snapshotStartedMs = performance.now();
const text = app.engine.snapshot();
createHash('sha256').update(text, 'utf8').digest('hex');
const snapshotMs = Math.round(performance.now() - snapshotStartedMs);
const stats = runner.stats();
process.stdout.write(
  `done ${stats.lastSeq} ${stats.snapshotsBySize} ${stats.snapshotsByTime} ${stats.lastSnapshotSeq} ` +
    `${Math.round(text.length / 1024)} ${snapshotMs} ${refusedBusy}\n`,
);
setInterval(() => {}, 60_000);
