// `npm run bench`: every performance target of docs/product.md that is built so far, measured in one
// run on this machine and printed as one table. Each section is a module exporting a function that
// returns its figures; a section that fails is reported as failed, never silently skipped.
//
// `npm run bench -- startup storage` runs only the sections named (by their key below). At the end, the
// targets of journal-first commits and stall-free state (issue #24) are listed with a met / not met line
// each, from the http, stall, fanout and startup sections of the same run (`npm run bench -- http stall
// fanout startup` runs just those). Figures taken on a machine busy with other work are noisy: the load
// average is printed at the start and the end.
//
// Each section runs in a child process of its own (this file started with `--section <key>`), which hands
// its figures back over the IPC channel: a section starts with a fresh heap and no threads, timers, stores or
// sockets left behind by the sections before it, so its figures do not depend on which sections ran first.
import { fork } from 'node:child_process';
import { runEngineBench } from '../packages/engine/bench/engine-bench.ts';
import { runJournalBench } from '../packages/server/bench/journal-bench.ts';
import { runHttpOrdersBench } from '../packages/server/bench/http-orders-bench.ts';
import { runFanoutWithFloorBench } from '../packages/server/bench/fanout-bench.ts';
import { reportLines, targetLines } from '../packages/server/bench/targets.ts';
import { loadavg } from 'node:os';
import { runStartupBench } from '../packages/server/bench/startup-bench.ts';
import { runStorageBench } from '../packages/server/bench/storage-bench.ts';
import { runWebPerfBench } from '../packages/web/bench/web-perf-bench.ts';
import { runPriceRecordBench } from '../packages/server/bench/price-record-bench.ts';
import { runMicroBench } from '../packages/server/bench/micro-bench.ts';
import { runLeverCloseBench } from '../packages/server/bench/lever-close-bench.ts';
import { runProductsBench } from '../packages/engine/bench/products-bench.ts';
import { runP2pBench } from '../packages/server/bench/p2p-bench.ts';
import { runStallBench } from '../packages/server/bench/stall-bench.ts';
import { runLeverBench } from '../packages/engine/bench/lever-bench.ts';
import { runLogBench as runLogAppendBench } from '../packages/engine/bench/log-bench.ts';
import { runRetentionBench } from '../packages/server/bench/retention-bench.ts';
import { runLogBench } from '../packages/server/bench/log-bench.ts';
import { runLiabilitiesBench } from '../packages/server/bench/liabilities-bench.ts';

type Figures = Record<string, number | string>;
type Section = { key: string; name: string; run: () => Promise<Figures> };

const sections: Section[] = [
  {
    key: 'engine',
    name: 'engine (one thread, mixed place/cancel/match, 10,000 resting orders)',
    run: runEngineBench,
  },
  { key: 'journal', name: 'journal and replay (durable group commit)', run: runJournalBench },
  {
    key: 'http',
    name: 'durable limit orders through HTTP (auth, validation, engine, journal)',
    run: runHttpOrdersBench,
  },
  {
    key: 'stall',
    name: 'event-loop stalls: state hashes and a snapshot of a 1,000,000-order book (replica vs event loop)',
    run: () => runStallBench(),
  },
  {
    key: 'fanout',
    name: 'socket fan-out (10,000 clients on one market, 10 updates/s), beside a bare ws broadcast, and at 5,000',
    run: () => runFanoutWithFloorBench(),
  },
  { key: 'startup', name: 'start-up of the embedded server (PGlite, live market)', run: runStartupBench },
  {
    key: 'storage',
    name: 'storage growth (PGlite: idle with the market maker, per 1,000 orders)',
    run: runStorageBench,
  },
  {
    key: 'price',
    name: 'price record (cost per sample, journal growth, proof p99)',
    run: runPriceRecordBench,
  },
  {
    key: 'micro',
    name: 'seconds contracts (50,000 on 10 pairs expiring in one second: settle, commit, push)',
    run: runMicroBench,
  },
  {
    key: 'lever',
    name: 'leverage: one mark update with 100,000 positions, 100,000 entries, 100,000 SL/TP on 20 pairs',
    run: runLeverBench,
  },
  {
    key: 'lever-close',
    name: 'leverage: a mark crossing a liquidation threshold to closed, committed and pushed (2,000 other positions)',
    run: runLeverCloseBench,
  },
  {
    key: 'products',
    name: 'products: the daily accrual of 1,000,000 holdings, and a second run of the same day',
    run: () => runProductsBench(),
  },
  {
    key: 'log-append',
    name: 'transparency log: appending one second of price samples for 7 markets (engine thread)',
    run: () => runLogAppendBench(),
  },
  {
    key: 'p2p',
    name: 'P2P payment window (10,000 unpaid orders reaching their end: cancelled, unlocked, committed)',
    run: runP2pBench,
  },
  {
    key: 'retention',
    name: 'journal retention over 100,000 commands and 50,000 dead quotes (PGlite), and price-samples reads meanwhile',
    run: runRetentionBench,
  },
  {
    key: 'log',
    name: 'transparency log proofs over a year of one-second leaves (PostgreSQL with DATABASE_URL, else 30 days on PGlite)',
    run: runLogBench,
  },
  {
    key: 'web',
    name: 'web main thread (board and chart at 20 updates/s, Playwright trace)',
    run: runWebPerfBench,
  },
  {
    key: 'liabilities',
    name: 'proof of liabilities: a 1,000,000-user x 10-column sum tree on its worker, main-thread stall, proof size',
    run: runLiabilitiesBench,
  },
];

function formatFigure(value: number | string): string {
  if (typeof value === 'string') return value;
  return Number.isInteger(value) ? value.toLocaleString('en-US') : value.toFixed(3);
}

const loadAverage = () => (loadavg()[0] ?? 0).toFixed(2);

/** What a section's child process sends back. */
type SectionAnswer = { figures: Figures } | { failure: string };

if (process.argv[2] === '--section') {
  await runSectionHere(process.argv[3] ?? '');
} else {
  await runSections(process.argv.slice(2));
}

/** The child's side: runs one section and sends its figures, or its failure, to the parent. */
async function runSectionHere(key: string): Promise<void> {
  const section = sections.find((candidate) => candidate.key === key);
  let answer: SectionAnswer;
  try {
    if (section === undefined) throw new Error(`no section ${key}`);
    answer = { figures: await section.run() };
  } catch (error) {
    answer = { failure: error instanceof Error ? error.message : String(error) };
  }
  const send = process.send?.bind(process);
  // Started by hand rather than by the table: the figures go to the output.
  if (send === undefined) console.log(JSON.stringify(answer, null, 2));
  else {
    await new Promise<void>((resolve, reject) =>
      send(answer, (error: Error | null) => (error ? reject(error) : resolve())),
    );
  }
  // A section may leave handles open (a pool's idle timer, a worker); its figures are in. The parent reads
  // the answer; by hand, the exit code says whether the section failed.
  process.exit('failure' in answer ? 1 : 0);
}

/** Runs a section in a child process of its own; rejects with the section's failure or the child's exit. */
function runSectionInChild(key: string): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL(import.meta.url), ['--section', key], { stdio: 'inherit' });
    let answer: SectionAnswer | undefined;
    child.on('message', (message: SectionAnswer) => (answer = message));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (answer !== undefined && 'figures' in answer) resolve(answer.figures);
      else if (answer !== undefined) reject(new Error(answer.failure));
      else reject(new Error(`the section's process exited (${signal ?? code}) without its figures`));
    });
  });
}

async function runSections(wanted: string[]): Promise<void> {
  const unknown = wanted.filter((key) => !sections.some((section) => section.key === key));
  if (unknown.length > 0) {
    console.error(
      `Unknown section ${unknown.join(', ')}; sections: ${sections.map((section) => section.key).join(', ')}`,
    );
    process.exitCode = 2;
    return;
  }
  const selected =
    wanted.length === 0 ? sections : sections.filter((section) => wanted.includes(section.key));

  const startedMs = performance.now();
  console.log(`npm run bench ${wanted.join(' ')}: load average (1 min) at start ${loadAverage()}`);
  const results = new Map<string, Figures>();
  let failed = 0;
  for (const section of selected) {
    console.log(`\n## ${section.name}`);
    const sectionStartedMs = performance.now();
    try {
      const figures = await runSectionInChild(section.key);
      results.set(section.key, figures);
      const width = Math.max(...Object.keys(figures).map((key) => key.length));
      for (const [key, value] of Object.entries(figures))
        console.log(`  ${key.padEnd(width)}  ${formatFigure(value)}`);
    } catch (error) {
      failed += 1;
      console.log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
    }
    console.log(`  (section time ${Math.round((performance.now() - sectionStartedMs) / 1000)} s)`);
  }

  if (['http', 'stall', 'fanout', 'startup'].some((key) => selected.some((section) => section.key === key))) {
    console.log('\n## Targets: journal-first commits and stall-free state (issue #24)');
    for (const line of targetLines(results)) {
      console.log(`  ${line.verdict.padEnd(12)}  ${line.name}`);
      console.log(`  ${''.padEnd(12)}  ${line.measured}`);
    }
    for (const [key, value] of reportLines(results))
      console.log(`  ${'figure'.padEnd(12)}  ${key}: ${value}`);
  }
  console.log(
    `\nTotal time ${Math.round((performance.now() - startedMs) / 1000)} s; load average (1 min) at the end ${loadAverage()}` +
      ' (on a machine shared with other work, every figure above is noisy).',
  );
  process.exitCode = failed === 0 ? 0 : 1;
}
