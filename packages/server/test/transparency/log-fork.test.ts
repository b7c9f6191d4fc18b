// The audit of issue 42, end to end, with the engine's own log (NEEDS THE ENGINE'S LOG AREA: it fails until
// the engine part of the transparency log, `startLog` and the logAppended / logCheckpoint events, is merged).
//
// A server starts the log (start-up journals `startLog`), records prices, and checkpoints are projected and
// signed; `verify:prices --save` saves a verified checkpoint and a witness cosigns it. Rebuilding the
// projections from the unchanged journal re-signs every checkpoint byte for byte. Then the server stops, one
// journaled price is changed by one tick, the state hashes and snapshots are cleared and the projections are
// rebuilt with the project's own code (rebuildExchangeProjections, with the log key), the server restarts
// and records more prices: the price record verifies on its own (its chain was recomputed), but
// `verify:prices --checkpoint` and the witness both report the fork (exit code 1, "FORK").
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyExchange } from '../../../../scripts/verify-prices.ts';
import { secretBoxFor } from '../../src/api-keys/sealed-secrets.ts';
import { DURABLE_LOG_FOLDER } from '../../src/engine-runner/durable-log-files.ts';
import { rebuildExchangeProjections } from '../../src/exchange-runner.ts';
import type { Store } from '../../src/store/index.ts';
import { logQueriesOf } from '../../src/transparency/events.ts';
import { readLogKey } from '../../src/transparency/log-key.ts';
import { buildTestApp, openTestStore, projected, removeTempDirs, tempDir } from '../helper.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../../../..');
const ORIGIN = 'fork.test/fairex-log';
let store: Store;
let folder: string;
let witnessKeyText: string;
let app: FastifyInstance | undefined;
let step = 0;

async function start(): Promise<{ app: FastifyInstance; base: string }> {
  const started = await buildTestApp(store, {
    transparencyLog: true,
    env: {
      DATA_DIR: folder,
      LOG_ORIGIN: ORIGIN,
      LOG_CHECKPOINT_INTERVAL_MS: '1000',
      LOG_WITNESSES: witnessKeyText,
    },
  });
  await started.listen({ port: 0, host: '127.0.0.1' });
  app = started;
  return { app: started, base: `http://127.0.0.1:${(started.server.address() as AddressInfo).port}` };
}

/** Price samples of two markets, each batch at its own price (6,700,000 + 10 per step). */
async function record(target: FastifyInstance, batches: number): Promise<void> {
  for (let at = 0; at < batches; at++, step++) {
    const now = Date.now();
    const outcome = await target.runner.submit({
      type: 'recordPriceSamples',
      maxAgeMs: 10_000,
      minSources: 1,
      headIntervalMs: 200,
      samples: [
        [1, [['simulated', 6_700_000 + step * 10, now]]],
        [2, [['simulated', 348_000 + step, now]]],
      ],
    });
    expect(outcome.code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 350));
  }
  await projected(target);
}

const cli = (script: string, args: string[]) =>
  run(process.execPath, [script, ...args], { cwd: ROOT }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

beforeAll(async () => {
  store = await openTestStore();
  folder = await tempDir('fairex-log-fork-');
  const printed = await cli('scripts/witness.ts', [
    '--print-key',
    '--store',
    join(folder, 'witness'),
    '--name',
    'fork.test/witness',
  ]);
  witnessKeyText = printed.stdout.trim();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await store.close();
  await removeTempDirs();
});

describe('a journal rewritten after a saved checkpoint', () => {
  it('is reported as a fork by verify:prices --checkpoint and by the witness', async () => {
    const saved = join(folder, 'checkpoint.txt');
    const first = await start();
    expect(logQueriesOf(first.app.engine)?.status()).toMatchObject({ started: true, origin: ORIGIN });
    await record(first.app, 8);
    const save = await cli('scripts/verify-prices.ts', [first.base, '--save', saved]);
    expect(save, save.stderr).toMatchObject({ code: 0 });
    expect(save.stdout).toMatch(/log: checkpoint of \d+ entries signed by fork\.test\/fairex-log\+/);
    const cosigned = await cli('scripts/witness.ts', [
      first.base,
      '--once',
      '--store',
      join(folder, 'witness'),
    ]);
    expect(cosigned, cosigned.stderr).toMatchObject({ code: 0 });
    expect((await first.app.inject({ url: '/api/log/checkpoint' })).json().message.note).toContain(
      '\u2014 fork.test/witness ',
    );
    await first.app.close();
    app = undefined;

    // Replay gives the same notes: a rebuild from the unchanged journal re-signs them byte for byte.
    const logKey = await readLogKey(store, await secretBoxFor(folder));
    expect(logKey).toBeDefined();
    const notes = async () =>
      (await store.query<{ note: string }>('select note from log_checkpoints order by size')).rows;
    const before = await notes();
    expect(before.length).toBeGreaterThan(1);
    await rebuildExchangeProjections(store, undefined, logKey);
    expect(await notes()).toEqual(before);

    // The operator's rewrite: one price of the second batch, one tick up; state hashes and snapshots
    // cleared; the projections rebuilt with the project's own code, signed with the same key.
    const rewritten = await store.query<{ first_seq: string }>(
      `update engine_journal set envelopes = replace(envelopes, '"simulated",6700010,', '"simulated",6700011,')
        where envelopes like '%"simulated",6700010,%' returning first_seq`,
    );
    expect(rewritten.rows).toHaveLength(1);
    await store.query('update engine_journal set state_hash = null');
    await store.query('delete from engine_snapshot_parts where seq > 0');
    await store.query('delete from engine_snapshots where seq > 0');
    if (store.dataDir !== undefined)
      await rm(join(store.dataDir, DURABLE_LOG_FOLDER), { recursive: true, force: true });
    await rebuildExchangeProjections(store, undefined, logKey);
    expect(await notes()).not.toEqual(before);

    const second = await start();
    await record(second.app, 4);
    // The price record alone cannot tell: its chain was recomputed from the rewritten journal.
    const alone = await verifyExchange(second.base, undefined, fetch);
    expect(alone.join('\n')).toMatch(/BTC\/USDT: \d+ samples chained/);
    const checked = await cli('scripts/verify-prices.ts', [second.base, '--checkpoint', saved]);
    expect(checked).toMatchObject({ code: 1, stderr: expect.stringMatching(/^FORK: /) });
    expect(checked.stderr).toContain('--- saved checkpoint ---');
    expect(checked.stderr).toContain('--- current checkpoint ---');
    const witnessed = await cli('scripts/witness.ts', [
      second.base,
      '--once',
      '--store',
      join(folder, 'witness'),
    ]);
    expect(witnessed).toMatchObject({ code: 1, stderr: expect.stringMatching(/^FORK: /) });
  }, 180_000);
});
