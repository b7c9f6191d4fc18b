// Price-record benchmark (docs/price-record.md): what a journaled price sample costs, how fast the journal
// grows with one sample a second per market, and how fast the proof call answers over a long record.
//
// - Engine: 7 markets, 20,000 recordPriceSamples commands (one source each) applied to a bare engine; the
//   cost per sample includes the median, basis, canonical record and SHA-256.
// - Journal: the same commands through the real runner with projections on PGlite (and PostgreSQL when
//   DATABASE_URL is set), one command at a time as the scheduler sends them; the cost per sample is the
//   runner's end to end (apply, encode, commit of the journal row and the price_samples rows), and the
//   growth is measured on the stored text (octet_length of the journal's envelopes) and on the tables' size.
// - Proof: price_samples filled directly with SQL (generate_series) with `days` of samples of one market at
//   one a second and a head every 60 samples, then 1,000 proof reads of random seqs through the same
//   function the route calls; p50 and p99. PGlite holds `PRICE_BENCH_DAYS` (default 30) days, PostgreSQL
//   `PRICE_BENCH_PG_DAYS` (default 365); each may list several sizes ("30,365").
//
// Run directly: node packages/server/bench/price-record-bench.ts, or npm run bench -- price
import { loadavg } from 'node:os';
import { Engine, encodeEnvelope } from '@fairex/engine';
import type { Command } from '@fairex/engine';
import { createExchangeRunner } from '../src/exchange-runner.ts';
import type { MarketInfo } from '../src/market/market-catalog.ts';
import { proofOf } from '../src/market/price-record.ts';
import type { OpenStoreOptions, Store } from '../src/store/index.ts';
import { openStore } from '../src/store/index.ts';
import { pgliteDatabase, postgresDatabase } from './journal-bench.ts';

type Figures = Record<string, number | string>;

const MARKETS = 7;
const DAY_S = 86_400;
const quietLogger = { info() {}, warn() {}, error() {} };

function setupCommands(): Command[] {
  const commands: Command[] = [{ type: 'addCurrency', currencyId: 100, code: 'USDT', scale: 6 }];
  for (let market = 1; market <= MARKETS; market++) {
    commands.push({ type: 'addCurrency', currencyId: market, code: `C${market}`, scale: 8 });
    commands.push({
      type: 'addMarket',
      marketId: market,
      baseCurrencyId: market,
      quoteCurrencyId: 100,
      tickSize: '0.01',
      lotSize: '0.0001',
      minimumLots: 1,
      makerFeePpm: 1_000,
      takerFeePpm: 2_000,
    });
  }
  return commands;
}

/** One second's samples of every market, one source each, as the scheduler sends them. */
function sampleCommand(second: number, timeMs: number): Command {
  const samples: [number, [string, number, number][]][] = [];
  for (let market = 1; market <= MARKETS; market++) {
    const priceTicks = 6_725_010 + ((second * 7919 + market * 104_729) % 20_001) - 10_000;
    samples.push([market, [['simulated', priceTicks, Math.floor(timeMs / 1000) * 1000]]]);
  }
  return { type: 'recordPriceSamples', maxAgeMs: 10_000, minSources: 1, headIntervalMs: 60_000, samples };
}

function engineFigures(commands = 20_000): Figures {
  const engine = Engine.create();
  let seq = 0;
  const startMs = 1_764_115_200_000;
  for (const command of setupCommands()) engine.apply({ seq: ++seq, timeMs: startMs, command });
  const envelopes = Array.from({ length: commands }, (_, index) => ({
    seq: seq + index + 1,
    timeMs: startMs + index * 1000,
    command: sampleCommand(index, startMs + index * 1000),
  }));
  const began = performance.now();
  for (const envelope of envelopes) engine.apply(envelope);
  const applyMs = performance.now() - began;
  const encodeBegan = performance.now();
  let bytes = 0;
  for (const envelope of envelopes) bytes += encodeEnvelope(envelope).length + 1;
  const encodeMs = performance.now() - encodeBegan;
  return {
    'engine: µs per sample (apply: median, basis, record, SHA-256)': round(
      (applyMs * 1000) / (commands * MARKETS),
    ),
    'engine: µs per sample to encode for the journal': round((encodeMs * 1000) / (commands * MARKETS)),
    'journal text per market per day, 7 markets in one command (bytes)': Math.round(
      (bytes / commands / MARKETS) * DAY_S,
    ),
  };
}

type Target = {
  name: string;
  open: () => Promise<{ options: OpenStoreOptions; cleanup: () => Promise<void> }>;
};

async function journalFigures(target: Target, seconds = 600): Promise<Figures> {
  const database = await target.open();
  try {
    const store = await openStore(database.options);
    const runner = await createExchangeRunner({
      store,
      logger: quietLogger,
      projections: true,
      snapshotEvery: Number.MAX_SAFE_INTEGER,
      snapshotOnClose: false,
    });
    for (const command of setupCommands()) await runner.submit(command);
    const size = async () => {
      const { rows } = await store.query<{ journal: string; samples: string; text: string }>(
        `select pg_total_relation_size('engine_journal')::text as journal,
                (pg_total_relation_size('price_samples') + pg_total_relation_size('price_heads'))::text as samples,
                coalesce((select sum(octet_length(envelopes)) from engine_journal), 0)::text as text`,
      );
      const row = rows[0] as { journal: string; samples: string; text: string };
      return { journal: Number(row.journal), samples: Number(row.samples), text: Number(row.text) };
    };
    const before = await size();
    const began = performance.now();
    for (let second = 0; second < seconds; second++) {
      const outcome = await runner.submit(sampleCommand(second, Date.now()));
      if (outcome.code !== 0) throw new Error(`samples refused with ${outcome.code}`);
    }
    const elapsedMs = performance.now() - began;
    const after = await size();
    await runner.close();
    await store.close();
    const perMarketDay = (bytes: number) => Math.round((bytes / seconds / MARKETS) * DAY_S);
    return {
      [`${target.name}: µs per sample, journaled one command a time (runner end to end)`]: round(
        (elapsedMs * 1000) / (seconds * MARKETS),
      ),
      [`${target.name}: journal envelope text per market per day (bytes)`]: perMarketDay(
        after.text - before.text,
      ),
      [`${target.name}: journal table growth per market per day (bytes, on disk)`]: perMarketDay(
        after.journal - before.journal,
      ),
      [`${target.name}: price_samples + price_heads growth per market per day (bytes, on disk)`]:
        perMarketDay(after.samples - before.samples),
    };
  } finally {
    await database.cleanup();
  }
}

async function proofFigures(target: Target, days: number, reads = 1_000): Promise<Figures> {
  const database = await target.open();
  try {
    const store: Store = await openStore(database.options);
    const count = days * DAY_S;
    const startMs = 1_732_579_200_000;
    const fillBegan = performance.now();
    // A realistic row: one source, prices near 67,250, hashes of 64 hex characters.
    const chunk = 2_000_000;
    for (let from = 1; from <= count; from += chunk) {
      const to = Math.min(count, from + chunk - 1);
      await store.query(
        `insert into price_samples (market_id, seq, time_ms, source_time_ms, index_ticks, mark_ticks, sources, stale,
           prev_hash, hash)
         select 1, n, $1::bigint + n * 1000, $1::bigint + n * 1000, 6725010 + n % 997, 6725010 + n % 991,
                '[["simulated",' || (6725010 + n % 997) || ',' || ($1::bigint + n * 1000) || ']]', false,
                md5((n - 1)::text) || md5((n - 1)::text || 'x'), md5(n::text) || md5(n::text || 'x')
           from generate_series($2::bigint, $3::bigint) as n`,
        [startMs, from, to],
      );
    }
    await store.query(
      `insert into price_heads (market_id, seq, time_ms, hash)
       select market_id, seq, time_ms, hash from price_samples where market_id = 1 and seq % 60 = 1`,
    );
    await store.query('analyze price_samples');
    await store.query('analyze price_heads');
    const fillS = (performance.now() - fillBegan) / 1000;
    const engine = Engine.create();
    let seq = 0;
    for (const command of setupCommands()) engine.apply({ seq: ++seq, timeMs: startMs, command });
    const market = { marketId: 1, symbol: 'C1/USDT' } as MarketInfo;
    const latencies: number[] = [];
    let state = 12345;
    for (let read = 0; read < reads; read++) {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      const at = 1 + (state % (count - 120));
      const began = performance.now();
      const proof = await proofOf(store, engine, market, at);
      latencies.push(performance.now() - began);
      if (proof.kind !== 'proof' || proof.samples.length === 0) throw new Error(`no proof for seq ${at}`);
    }
    await store.close();
    latencies.sort((a, b) => a - b);
    const at = (fraction: number) => round(latencies[Math.min(reads - 1, Math.floor(reads * fraction))] ?? 0);
    return {
      [`${target.name}: samples in the table (${days} days of one market)`]: count,
      [`${target.name}: seconds to fill them`]: round(fillS),
      [`${target.name}: proof call p50 (ms)`]: at(0.5),
      [`${target.name}: proof call p99 (ms)`]: at(0.99),
    };
  } finally {
    await database.cleanup();
  }
}

/**
 * Figures go to `report` as each part ends (the proof parts over a long record take minutes), and are also
 * returned together for the bench table.
 */
export async function runPriceRecordBench(report: (figures: Figures) => void = () => {}): Promise<Figures> {
  const figures: Figures = { 'load average at start (1 min)': round(loadavg()[0] ?? 0) };
  const add = (part: Figures) => {
    Object.assign(figures, part);
    report(part);
  };
  add(engineFigures());
  const pglite: Target = { name: 'pglite', open: () => pgliteDatabase('fairex-price-bench-') };
  add(await journalFigures(pglite));
  for (const days of daysList(process.env.PRICE_BENCH_DAYS, '30')) add(await proofFigures(pglite, days));
  const url = process.env.DATABASE_URL;
  if (url) {
    const postgres: Target = { name: 'postgres', open: () => postgresDatabase(url, 'price_bench') };
    add(await journalFigures(postgres));
    for (const days of daysList(process.env.PRICE_BENCH_PG_DAYS, '365'))
      add(await proofFigures(postgres, days));
  } else {
    add({ postgres: 'skipped: DATABASE_URL not set' });
  }
  return figures;
}

/** "30,365" -> [30, 365]. */
function daysList(text: string | undefined, fallback: string): number[] {
  return (text ?? fallback).split(',').map((part) => Math.max(1, Math.floor(Number(part)) || 1));
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

if (import.meta.main) {
  await runPriceRecordBench((figures) => {
    for (const [key, value] of Object.entries(figures)) console.log(`${key.padEnd(86)}  ${value}`);
  });
}
