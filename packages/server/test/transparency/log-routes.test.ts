// The transparency log's calls on a real app (PGlite, or PostgreSQL with DATABASE_URL), listening on a port,
// with a witness beside it. The log's events are built here as the engine emits them (log-events.ts) from
// price samples the engine really chained, and projected with the app's own log key; then:
// - the calls answer the key, the signed checkpoint, proofs, entries and the leaf of a sample, and refuse
//   bad input with a translated error in every language;
// - `verify:prices --save` saves a verified checkpoint, and a later run with `--checkpoint` accepts a log
//   that grew from it;
// - a witness cosigns (its line is served with the checkpoint), and only LOG_WITNESSES' cosignatures count;
// - after the log is rewritten (one sample's hash changed in one entry, every node and checkpoint recomputed
//   and re-signed with the same key), `verify:prices --checkpoint` and the witness both report the fork,
//   as functions and as the command lines (exit code 1, the message naming the fork);
// - `verify:prices --witness <key>` (repeatable) passes only when the checkpoint carries a valid
//   cosignature of every named witness.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import type { PriceSampledEvent } from '@fairex/engine';
import { leafHash } from '@fairex/engine/log/merkle.ts';
import { LANGUAGES, translate } from '@fairex/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ForkError,
  checkInclusion,
  parseArguments,
  parseNoteKey,
  verifyCheckpointNote,
  verifyCosignature,
  verifyExchange,
} from '../../../../scripts/verify-prices.ts';
import { WitnessStore, witnessKey, witnessRound } from '../../../../scripts/witness.ts';
import { secretBoxFor } from '../../src/api-keys/sealed-secrets.ts';
import type { Store } from '../../src/store/index.ts';
import { openLogKey } from '../../src/transparency/log-key.ts';
import type { LogEvent } from '../../src/transparency/events.ts';
import { parseVerifierKey, verifiedCosignature } from '../../src/transparency/note.ts';
import { LOG_TABLES, writeLogEvents } from '../../src/transparency/projection.ts';
import { buildTestApp, openTestStore, projected, removeTempDirs, tempDir } from '../helper.ts';
import { LogBuilder, pricesEntry } from './log-events.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../../../..');
const ORIGIN = 'test.example/fairex-log';
const witness = witnessKey('witness.test/w1', new Uint8Array(32).fill(9));
const stranger = witnessKey('witness.test/stranger', new Uint8Array(32).fill(10));
let store: Store;
let app: FastifyInstance;
let base: string;
let folder: string;
const symbols = new Map<number, string>();
/** Each recordPriceSamples command's samples, in order. */
const batches: PriceSampledEvent[][] = [];
let log = new LogBuilder(ORIGIN);

async function sampleOnce(step: number): Promise<void> {
  const now = Date.now();
  const outcome = await app.runner.submit({
    type: 'recordPriceSamples',
    maxAgeMs: 10_000,
    minSources: 1,
    headIntervalMs: 20,
    samples: [
      [1, [['simulated', 6_700_000 + step * 7, now]]],
      [2, [['simulated', 348_000 + step, now]]],
    ],
  });
  expect(outcome.code).toBe(0);
  batches.push(outcome.events.filter((event): event is PriceSampledEvent => event.type === 'priceSampled'));
  await new Promise((resolve) => setTimeout(resolve, 25));
}

/** The log events of batches [from, to) appended to `into`, with a checkpoint after the last. */
function logEvents(
  into: LogBuilder,
  from: number,
  to: number,
  change?: (entry: string) => string,
): LogEvent[] {
  const events: LogEvent[] = [];
  for (const batch of batches.slice(from, to)) {
    const timeMs = (batch[0] as PriceSampledEvent).timeMs;
    const entry = pricesEntry(
      timeMs,
      batch.map((sample) => [symbols.get(sample.marketId) as string, sample.seq, sample.hash]),
    );
    events.push(into.append(change?.(entry) ?? entry));
  }
  events.push(into.checkpoint((batches[to - 1]?.[0] as PriceSampledEvent).timeMs));
  return events;
}

const project = (events: LogEvent[]) =>
  app.store.transaction((tx) => writeLogEvents(tx, events, app.transparency.key(), 'copy'));

async function get(url: string) {
  const response = await app.inject({ method: 'GET', url });
  expect(response.statusCode).toBe(200);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return response.json() as { type: string; message: any };
}

beforeAll(async () => {
  store = await openTestStore();
  folder = await tempDir('fairex-log-test-');
  // The log is not started here (its events are built by the test), so the key is made first, as the
  // log's start makes it; the app reads it at start.
  await openLogKey(store, await secretBoxFor(folder));
  app = await buildTestApp(store, {
    env: { LOG_ORIGIN: ORIGIN, LOG_WITNESSES: witness.verifierKey, DATA_DIR: folder },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const { rows } = await store.query<{ id: number; symbol: string }>('select id, symbol from markets');
  for (const row of rows) symbols.set(row.id, row.symbol);
  for (let step = 0; step < 8; step++) await sampleOnce(step);
  await projected(app);
  await project(logEvents(log, 0, 8));
}, 120_000);

afterAll(async () => {
  await app.close();
  await store.close();
  await removeTempDirs();
});

describe('GET /api/log/*', () => {
  it('serves the key, and a checkpoint signed with it', async () => {
    const key = await get('/api/log/key');
    expect(key.message).toEqual({
      origin: ORIGIN,
      key: app.transparency.verifierKey(),
      public_key: app.transparency.key()?.publicKey.toString('base64'),
    });
    expect(key.message.key).toMatch(/^test\.example\/fairex-log\+[0-9a-f]{8}\+/);
    const checkpoint = await get('/api/log/checkpoint');
    expect(checkpoint.message).toMatchObject({ size: 8, root: log.root() });
    const verified = verifyCheckpointNote(checkpoint.message.note, parseNoteKey(key.message.key));
    expect(verified).toMatchObject({ origin: ORIGIN, size: 8 });
  });

  it('serves entries, the leaf of a sample and its inclusion proof', async () => {
    const entries = await get('/api/log/entries?start=2&end=5');
    expect(entries.message.entries).toEqual(
      [2, 3, 4].map((index) => ({ index, kind: 'prices', entry: log.entries[index] })),
    );
    const sample = batches[3]?.find((event) => event.marketId === 2) as PriceSampledEvent;
    const leaf = await get(`/api/log/sample?symbol=${symbols.get(2)}&seq=${sample.seq}`);
    expect(leaf.message).toEqual({ index: 3, entry: log.entries[3] });
    expect(leaf.message.entry).toContain(`${symbols.get(2)} ${sample.seq} ${sample.hash}\n`);
    const inclusion = await get('/api/log/inclusion?index=3&size=8');
    expect(inclusion.message.leaf_hash).toBe(
      Buffer.from(leafHash(Buffer.from(log.entries[3] as string))).toString('hex'),
    );
    const proof = (inclusion.message.proof as string[]).map((hex) => Buffer.from(hex, 'hex'));
    const root = Buffer.from(log.root(), 'hex');
    expect(checkInclusion(Buffer.from(inclusion.message.leaf_hash, 'hex'), 3, 8, proof, root)).toBe(true);
    const consistency = await get('/api/log/consistency?from=3&to=8');
    expect(consistency.message).toMatchObject({ from: 3, to: 8 });
    expect(consistency.message.proof.length).toBeGreaterThan(0);
  });

  it('refuses bad input with a translated error, in every language', async () => {
    const cases: [string, Parameters<typeof translate>[1] | RegExp][] = [
      ['/api/log/inclusion?index=8&size=8', 'log.index_beyond_size'],
      ['/api/log/inclusion?index=0&size=9', 'log.beyond_checkpoint'],
      ['/api/log/consistency?from=5&to=4', 'log.range_order'],
      ['/api/log/consistency?from=0&to=99', 'log.beyond_checkpoint'],
      ['/api/log/entries?start=0&end=1001', 'log.too_many_entries'],
      ['/api/log/entries?start=5&end=5', 'log.range_order'],
      ['/api/log/sample?symbol=BTC/USDT&seq=999999', 'log.sample_not_logged'],
      ['/api/log/sample?symbol=NOPE/USDT&seq=1', 'market.unknown_market'],
    ];
    for (const lang of LANGUAGES) {
      for (const [url, key] of cases) {
        const body = await get(`${url}&lang=${lang}`);
        expect(body.type, url).toBe('error');
        if (typeof key === 'string')
          expect(body.message, `${lang} ${url}`).toBe(translate(lang, key, { max: 1000 }));
      }
      for (const url of [
        '/api/log/inclusion?index=-1&size=8',
        '/api/log/inclusion?index=x&size=8',
        '/api/log/consistency?from=1',
        '/api/log/entries?start=0',
        `/api/log/sample?symbol=BTC/USDT&seq=0`,
      ]) {
        const body = await get(`${url}&lang=${lang}`);
        expect(body.type, url).toBe('error');
        expect(body.message.length, url).toBeGreaterThan(0);
      }
    }
    // Nothing changed: the checkpoint is the same.
    expect((await get('/api/log/checkpoint')).message.size).toBe(8);
  });
});

describe('witnesses and the saved checkpoint', () => {
  const saved = () => join(folder, 'checkpoint.txt');

  it('verify:prices checks the log and saves the verified checkpoint with its key', async () => {
    const report = await verifyExchange(base, undefined, fetch, { save: saved() });
    expect(report.join('\n')).toMatch(/checkpoint of 8 entries signed by/);
    for (const id of [1, 2])
      expect(report.join('\n')).toContain(`${symbols.get(id)}: sample seq 8 is log entry 7, included`);
    expect(await readFile(saved(), 'utf8')).toBe((await get('/api/log/checkpoint')).message.note);
    expect((await readFile(`${saved()}.vkey`, 'utf8')).trim()).toBe(app.transparency.verifierKey());
  });

  it('a listed witness cosigns, and its line is served with the checkpoint; others are refused', async () => {
    const witnessStore = new WitnessStore(join(folder, 'witness'));
    const first = await witnessRound(base, witnessStore, witness);
    expect(first).toEqual({ kind: 'cosigned', size: 8, previous: undefined });
    const note = (await get('/api/log/checkpoint')).message.note as string;
    const cosigned = verifiedCosignature(note, parseVerifierKey(witness.verifierKey)!);
    expect(cosigned).toBeDefined();
    // A witness not in LOG_WITNESSES is refused, in every language, and nothing is stored.
    const strangerStore = new WitnessStore(join(folder, 'stranger'));
    await expect(witnessRound(base, strangerStore, stranger)).rejects.toThrow(/cosignature/);
    for (const lang of LANGUAGES) {
      const response = await app.inject({
        method: 'POST',
        url: `/api/log/cosignature?lang=${lang}`,
        payload: { note: 'not a note' },
      });
      expect(response.json()).toEqual({ type: 'error', message: translate(lang, 'log.cosignature_refused') });
    }
    const { rows } = await store.query('select witness from log_cosignatures');
    expect(rows).toEqual([{ witness: witness.verifierKey }]);
  });

  it('verify:prices --witness requires a valid cosignature of each named witness', async () => {
    const report = await verifyExchange(base, undefined, fetch, { witnesses: [witness.verifierKey] });
    expect(report.join('\n')).toMatch(/log: cosigned by the witness witness\.test\/w1 at \d{4}-/);
    // A witness that did not cosign this checkpoint (here one the exchange does not list) fails the check.
    await expect(
      verifyExchange(base, undefined, fetch, { witnesses: [witness.verifierKey, stranger.verifierKey] }),
    ).rejects.toThrow(/no valid cosignature of the witness witness\.test\/stranger\+/);
    // A cosignature line whose signature does not verify, or whose time was changed, does not count.
    const note = (await get('/api/log/checkpoint')).message.note as string;
    const key = parseNoteKey(witness.verifierKey);
    expect(verifyCosignature(note, key)).toBeGreaterThan(0n);
    const [head, line = ''] = note.split(/(?=\u2014 witness\.test\/w1 )/);
    const bytes = Buffer.from(line.trim().split(' ')[2] as string, 'base64');
    for (const at of [11, 40]) {
      const changed = Buffer.from(bytes);
      changed[at] = (changed[at] as number) ^ 1;
      const forged = `${head}\u2014 witness.test/w1 ${changed.toString('base64')}\n`;
      expect(() => verifyCosignature(forged, key)).toThrow(/no valid cosignature/);
    }
    // The log's own key is not a witness key.
    expect(() => verifyCosignature(note, parseNoteKey(app.transparency.verifierKey() as string))).toThrow(
      /not a witness key/,
    );
    // The command line: --witness is repeatable; a missing cosignature exits 1 naming the witness.
    expect(
      parseArguments([base, '--witness', witness.verifierKey, '--witness', stranger.verifierKey]).witnesses,
    ).toEqual([witness.verifierKey, stranger.verifierKey]);
    expect(() => parseArguments([base, '--witness', 'not-a-key'])).toThrow();
    const ok = await run(
      process.execPath,
      ['scripts/verify-prices.ts', base, '--witness', witness.verifierKey],
      {
        cwd: ROOT,
      },
    );
    expect(ok.stdout).toContain('cosigned by the witness witness.test/w1');
    const cli = await run(
      process.execPath,
      ['scripts/verify-prices.ts', base, '--witness', witness.verifierKey, '--witness', stranger.verifierKey],
      { cwd: ROOT },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(cli).toMatchObject({ code: 1, stderr: expect.stringContaining('witness.test/stranger+') });
  }, 60_000);

  it('accepts a log that grew from the saved checkpoint', async () => {
    for (let step = 8; step < 13; step++) await sampleOnce(step);
    await projected(app);
    await project(logEvents(log, 8, 13));
    const report = await verifyExchange(base, undefined, fetch, { checkpoint: saved() });
    expect(report.join('\n')).toContain('consistent with the saved checkpoint of 8 entries');
    const round = await witnessRound(base, new WitnessStore(join(folder, 'witness')), witness);
    expect(round).toEqual({ kind: 'cosigned', size: 13, previous: 8 });
  });

  it('reports a rewritten log as a fork: verify:prices --checkpoint and the witness, exit code 1', async () => {
    // The operator rewrites entry 2 (one sample's hash) and recomputes and re-signs everything after it.
    const target = batches[2]?.[0] as PriceSampledEvent;
    await store.query(`truncate ${LOG_TABLES.join(', ')}, log_cosignatures`);
    log = new LogBuilder(ORIGIN);
    const forged = target.hash.replace(/^./, (first) => (first === '0' ? '1' : '0'));
    await project(
      logEvents(log, 0, 13, (entry) =>
        entry.includes(` ${target.seq} ${target.hash}\n`) ? entry.replace(target.hash, forged) : entry,
      ),
    );
    expect(log.entries[2]).toContain(forged);
    await expect(verifyExchange(base, undefined, fetch, { checkpoint: saved() })).rejects.toThrow(ForkError);
    await expect(verifyExchange(base, undefined, fetch, { checkpoint: saved() })).rejects.toThrow(
      /^FORK: the checkpoint of 13 entries does not extend the saved one of 8/,
    );
    const round = await witnessRound(base, new WitnessStore(join(folder, 'witness')), witness);
    expect(round.kind).toBe('fork');
    expect(round.kind === 'fork' && round.message).toMatch(/^FORK: /);

    const cli = await run(process.execPath, ['scripts/verify-prices.ts', base, '--checkpoint', saved()], {
      cwd: ROOT,
    }).catch((error: { code: number; stderr: string }) => error);
    expect(cli).toMatchObject({ code: 1, stderr: expect.stringMatching(/^FORK: /) });
    expect((cli as { stderr: string }).stderr).toContain('--- saved checkpoint ---');
    const witnessCli = await run(
      process.execPath,
      ['scripts/witness.ts', base, '--once', '--store', join(folder, 'witness')],
      { cwd: ROOT },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(witnessCli).toMatchObject({ code: 1, stderr: expect.stringMatching(/^FORK: /) });
  }, 60_000);
});
