// `npm run sim` (or `node packages/engine/bench/simulate.ts <count> [seed]`): runs the seeded simulation
// standalone, checks every invariant every 10,000 commands, then replays all envelopes through the journal
// codec into a fresh engine without events (Engine.replay, as a restart's recovery does) and compares state
// hashes. Prints commands per second and the final hash.
import { Engine, decodeEnvelope, encodeEnvelope } from '../src/index.ts';
import { SIMULATION_ENGINE_OPTIONS, Simulation } from '../test/simulation.ts';

const count = Number(process.argv[2] ?? 1_000_000);
const seed = Number(process.argv[3] ?? 1);
if (!Number.isSafeInteger(count) || count < 1 || !Number.isSafeInteger(seed)) {
  console.error('usage: simulate.ts <count> [seed]');
  process.exit(2);
}

const engine = Engine.create(SIMULATION_ENGINE_OPTIONS);
const simulation = new Simulation(seed);
// The journal text of every envelope, as the runner would store it; replayed below.
const journal: string[] = [];
let applyMs = 0;
const started = performance.now();
for (let index = 1; index <= count; index += 1) {
  const envelope = simulation.nextEnvelope();
  journal.push(encodeEnvelope(envelope));
  const applyStarted = performance.now();
  const outcome = engine.apply(envelope);
  applyMs += performance.now() - applyStarted;
  simulation.observe(outcome);
  if (index % 10_000 === 0) engine.checkInvariants();
}
engine.checkInvariants();
const liveMs = performance.now() - started;
const hash = engine.stateHash();

const replayStarted = performance.now();
const replica = Engine.create(SIMULATION_ENGINE_OPTIONS);
for (const text of journal) replica.replay(decodeEnvelope(text));
const replayMs = performance.now() - replayStarted;
const replayHash = replica.stateHash();

const { stats } = simulation;
const rate = (commands: number, ms: number) => Math.round(commands / (ms / 1000)).toLocaleString('en-US');
console.log(`simulation: ${count.toLocaleString('en-US')} commands, seed ${seed}`);
console.log(`  live (generate + apply + invariants)  ${rate(count, liveMs)} commands/s`);
console.log(`  engine apply alone                    ${rate(count, applyMs)} commands/s`);
console.log(
  `  replay from journal text              ${rate(count, replayMs)} commands/s (decode + Engine.replay, no events)`,
);
console.log(
  `  trades ${stats.trades.toLocaleString('en-US')}, refused ${stats.refused.toLocaleString('en-US')}, duplicates ${stats.duplicates.toLocaleString('en-US')}, open orders ${(engine.stats().openOrders ?? 0).toLocaleString('en-US')}`,
);
console.log(`  final state hash  ${hash}`);
if (replayHash !== hash) {
  console.error(`  REPLAY MISMATCH: replayed state hash ${replayHash}`);
  process.exit(1);
}
console.log('  replay state hash matches');
