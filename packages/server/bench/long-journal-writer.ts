// The writer of the start-up benchmark's long journal: on a data folder the real server has already
// created, it runs the exchange's engine runner with the settings of its environment (the snapshot rules
// included, loadConfig), submits COMMANDS seeded demo-market commands (BTC/USDT, 64 in flight), prints
// "done <lastSeq> <snapshotsBySize> <snapshotsByTime> <lastSnapshotSeq>" and waits to be killed with
// SIGKILL, so that nothing is written at close.
import { loadConfig } from '../src/config.ts';
import { createEngineRunner, exchangeRunnerSettings } from '../src/engine-runner/index.ts';
import { openStore } from '../src/store/index.ts';
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
const store = await openStore({ dataDir: config.dataDir });
const runner = await createEngineRunner({
  store,
  logger: { info() {}, warn() {}, error() {} },
  ...exchangeRunnerSettings(config),
});
for (let userId = FIRST_USER; userId < FIRST_USER + USERS; userId++) {
  await runner.submit({ type: 'deposit', userId, currencyId: BTC, amount: 1_000n * 100_000_000n });
  await runner.submit({ type: 'deposit', userId, currencyId: USDT, amount: 100_000_000n * 1_000_000n });
}
const workload = new Workload(Number(process.env.SEED ?? 1), USERS, DEMO_MARKET);
let submitted = 0;
async function submitLoop(): Promise<void> {
  while (submitted < total) {
    submitted++;
    await runner.submit(workload.next(runner.engine));
  }
}
await Promise.all(Array.from({ length: IN_FLIGHT }, () => submitLoop()));
const stats = runner.stats();
process.stdout.write(
  `done ${stats.lastSeq} ${stats.snapshotsBySize} ${stats.snapshotsByTime} ${stats.lastSnapshotSeq}\n`,
);
setInterval(() => {}, 60_000);
