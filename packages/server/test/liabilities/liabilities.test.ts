// Proof of liabilities on the server, fed the engine's events directly (the projection, the tree builder on
// its worker thread, the reads and the routes): every user's served proof verifies against the published
// root and totals; leaves are shuffled and salted by the sealed secret; a negative or overflowing amount
// stores nothing; a user with nothing gets a translated answer; a pending capture is published at start.
import type { FastifyInstance } from 'fastify';
import type { LiabilitiesProofReply } from '@fairex/shared';
import { verifySumProof } from '@fairex/engine/log/sum-tree.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { SecretBox } from '../../src/api-keys/sealed-secrets.ts';
import { buildAndStore, LiabilitiesTreeError } from '../../src/liabilities/builder.ts';
import type { PublishLiabilitiesCommand } from '../../src/liabilities/builder.ts';
import { writeLiabilitiesRows } from '../../src/liabilities/projection.ts';
import type { LiabilitiesEvent } from '../../src/liabilities/projection.ts';
import { LiabilitiesPublisher } from '../../src/liabilities/publisher.ts';
import { liabilitiesSecret } from '../../src/liabilities/service.ts';
import { verifyLiabilitiesProof } from '../../../../scripts/verify-liabilities.ts';
import { buildTestApp, createUser, loginAs, openTestStore, removeTempDirs } from '../helper.ts';

let store: Store;
let app: FastifyInstance;
const SECRET = new Uint8Array(32).fill(9);
const COLUMNS = ['BTC', 'USDT', 'USDT:upnl+', 'USDT:upnl-'];

async function project(events: LiabilitiesEvent[]): Promise<void> {
  await store.transaction((tx) => writeLiabilitiesRows(tx, [{ outcome: { events } }]));
}

function captured(snapshotId: string, users: [number, bigint[]][], seq = 10): LiabilitiesEvent {
  const totals = COLUMNS.map((_, column) =>
    users.reduce((sum, [, amounts]) => sum + (amounts[column] as bigint), 0n),
  );
  return {
    type: 'liabilitiesCaptured',
    snapshotId,
    seq,
    timeMs: 1_765_000_000_000,
    columns: COLUMNS,
    users,
    totals,
    identity: [
      { currency: 'BTC', users: totals[0] as bigint, exchange: 5n, outside: -(totals[0] as bigint) - 5n },
      { currency: 'USDT', users: totals[1] as bigint, exchange: 0n, outside: -(totals[1] as bigint) },
    ],
  };
}

/** What the engine would append and emit for a publish (log-design.md), projected. */
async function published(command: PublishLiabilitiesCommand, index: number): Promise<string> {
  const entry =
    `fairex-log-v1 liabilities\nsnapshot ${command.snapshotId}\nseq 10\ntime 1765000000000\n` +
    `leaves ${command.leafCount}\nroot ${command.root}\n` +
    command.columns.map((column, at) => `total ${column} ${command.totals[at]}\n`).join('');
  await project([
    { type: 'logAppended', index, kind: 'liabilities', entry, leafHash: '', nodes: [] },
    {
      type: 'liabilitiesPublished',
      snapshotId: command.snapshotId,
      index,
      root: command.root,
      leafCount: command.leafCount,
    },
  ]);
  return entry;
}

async function get(url: string, token?: string) {
  const response = await app.inject({
    method: 'GET',
    url,
    headers: token === undefined ? {} : { authorization: token },
  });
  expect(response.statusCode).toBe(200);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return response.json() as { type: string; message: any };
}

function claimOf(proof: LiabilitiesProofReply) {
  return {
    leaf: {
      salt: Buffer.from(proof.salt, 'hex'),
      userId: proof.user_id,
      amounts: proof.amounts.map(BigInt),
    },
    position: proof.position,
    leafCount: proof.leaves,
    path: proof.path.map((step) => ({ hash: Buffer.from(step.hash, 'hex'), sums: step.sums.map(BigInt) })),
    rootHash: Buffer.from(proof.root, 'hex'),
    rootSums: proof.totals.map(BigInt),
  };
}

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store);
  await app.ready();
}, 300_000);

afterAll(async () => {
  await app?.close();
  await store?.close();
  await removeTempDirs();
});

describe('a published snapshot', () => {
  const users: number[] = [];
  let entry = '';
  let command: PublishLiabilitiesCommand;

  beforeAll(async () => {
    for (let index = 0; index < 13; index += 1) users.push(await createUser(store));
    const amounts: [number, bigint[]][] = users
      .slice(0, 12)
      .map((userId, index) => [
        userId,
        [
          BigInt(index * 1_000),
          BigInt(index % 3) * 10_000_000n,
          index === 4 ? 77n : 0n,
          index === 5 ? 12n : 0n,
        ],
      ]);
    await project([captured('2026-12-07', amounts)]);
    command = await buildAndStore(store, SECRET, '2026-12-07');
    entry = await published(command, 41);
  }, 120_000);

  it('publishes the root over every user with amounts, with the captured totals', () => {
    expect(command.leafCount).toBe(12);
    expect(command.columns).toEqual(COLUMNS);
    expect(command.totals).toEqual([66_000n, 120_000_000n, 77n, 12n]);
    expect(command.root).toMatch(/^[0-9a-f]{64}$/);
  });

  it('serves the latest snapshot publicly', async () => {
    const reply = await get('/api/log/liabilities/latest');
    expect(reply.type).toBe('ok');
    expect(reply.message).toMatchObject({
      snapshot_id: '2026-12-07',
      index: 41,
      seq: 10,
      root: command.root,
      leaves: 12,
      columns: COLUMNS,
      totals: { BTC: '66000', USDT: '120000000', 'USDT:upnl+': '77', 'USDT:upnl-': '12' },
      entry,
    });
    expect(reply.message.identity[0]).toEqual({
      currency: 'BTC',
      users: '66000',
      exchange: '5',
      outside: '-66005',
    });
  });

  it('serves each signed-in user only their own proof, which verifies against the root and totals', async () => {
    const positions: number[] = [];
    for (const userId of users.slice(0, 12)) {
      const reply = await get('/api/log/liabilities/proof?snapshot=2026-12-07', await loginAs(store, userId));
      expect(reply.type).toBe('ok');
      const proof = reply.message as LiabilitiesProofReply;
      expect(proof.user_id).toBe(String(userId));
      expect(proof.root).toBe(command.root);
      expect(verifySumProof(claimOf(proof))).toBe(true);
      // The offline verifier agrees, from the proof and the log entry alone.
      expect(verifyLiabilitiesProof(proof, entry).ok).toBe(true);
      expect(JSON.stringify(proof).length).toBeLessThan(8_000);
      positions.push(proof.position);
    }
    // Every position once, and not in user order (shuffled by the secret).
    expect([...positions].sort((a, b) => a - b)).toEqual(users.slice(0, 12).map((_, index) => index));
    expect(positions).not.toEqual(users.slice(0, 12).map((_, index) => index));
  });

  it('the verifier refuses a proof whose sibling sum was lowered or whose amounts were raised', async () => {
    const reply = await get(
      '/api/log/liabilities/proof?snapshot=2026-12-07',
      await loginAs(store, users[6]!),
    );
    const proof = reply.message as LiabilitiesProofReply;
    const lowered = structuredClone(proof);
    const step = lowered.path.find((s) => s.sums.some((sum) => sum !== '0'))!;
    const column = step.sums.findIndex((sum) => sum !== '0');
    step.sums[column] = String(BigInt(step.sums[column]!) - 1n);
    expect(verifyLiabilitiesProof(lowered, entry).ok).toBe(false);
    const raised = structuredClone(proof);
    raised.amounts[0] = String(BigInt(raised.amounts[0]!) + 1n);
    expect(verifyLiabilitiesProof(raised, entry).ok).toBe(false);
  });

  it('a user with nothing at the snapshot has nothing to prove; an unknown snapshot and bad input get translated answers', async () => {
    const nobody = await loginAs(store, users[12]!);
    const none = await get('/api/log/liabilities/proof?snapshot=2026-12-07', nobody);
    // Nothing held at the snapshot: no leaf, so the answer is that there is no proof (null), not an error.
    expect(none).toEqual({ type: 'ok', message: null });
    const unknown = await get('/api/log/liabilities/proof?snapshot=2026-12-08', nobody);
    expect(unknown.message).toBe('No liabilities snapshot with this id has been published.');
    const bad = await get('/api/log/liabilities/proof?snapshot=yesterday', nobody);
    expect(bad.type).toBe('error');
    const chinese = await app.inject({
      method: 'GET',
      url: '/api/log/liabilities/proof?snapshot=2026-12-08',
      headers: { authorization: nobody, lang: 'zh' },
    });
    expect((chinese.json() as { message: string }).message).toBe('不存在已发布的该负债快照。');
    const anonymous = await get('/api/log/liabilities/proof?snapshot=2026-12-07');
    expect(anonymous.type).not.toBe('ok');
  });
});

describe('refused trees store nothing', () => {
  it('a negative amount', async () => {
    const userId = await createUser(store);
    await project([captured('2026-12-01', [[userId, [1n, 2n, 0n, 0n]]])]);
    await store.query(`update liability_amounts set amounts = '1,-2,0,0' where snapshot_id = '2026-12-01'`);
    await expect(buildAndStore(store, SECRET, '2026-12-01')).rejects.toMatchObject({
      code: 'negative_amount',
    });
    const { rows } = await store.query(`select 1 from liability_leaves where snapshot_id = '2026-12-01'`);
    expect(rows).toHaveLength(0);
  });

  it('a sum that reaches 2^64', async () => {
    const a = await createUser(store);
    const b = await createUser(store);
    const half = 1n << 63n;
    await project([
      captured('2026-12-02', [
        [a, [half, 0n, 0n, 0n]],
        [b, [half, 0n, 0n, 0n]],
      ]),
    ]);
    const error = await buildAndStore(store, SECRET, '2026-12-02').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LiabilitiesTreeError);
    expect(error).toMatchObject({ code: 'sum_overflow' });
    const { rows } = await store.query(`select 1 from liability_leaves where snapshot_id = '2026-12-02'`);
    expect(rows).toHaveLength(0);
  });
});

describe('the secret', () => {
  it('is sealed at rest and the same on every read', async () => {
    const box = new SecretBox(Buffer.alloc(32, 3));
    const first = await liabilitiesSecret(store, box);
    expect(first).toHaveLength(32);
    expect((await liabilitiesSecret(store, box)).equals(first)).toBe(true);
    const { rows } = await store.query<{ sealed: string }>(`select sealed from liability_secret`);
    expect(rows[0]?.sealed).not.toContain(first.toString('hex'));
    expect(SecretBox.isSealed(rows[0]?.sealed ?? '')).toBe(true);
  });
});

describe('a capture left pending by a crash', () => {
  it('is built and published at start', async () => {
    const userId = await createUser(store);
    await project([captured('2026-12-03', [[userId, [5n, 6n, 0n, 0n]]], 33)]);
    const submitted: unknown[] = [];
    const publisher = new LiabilitiesPublisher({
      store,
      secret: async () => SECRET,
      runner: {
        submit: async (command) => {
          submitted.push(command);
          return { seq: 34, code: 0, events: [] };
        },
        whenProjected: async () => true,
        pending: () => ({ snapshotId: '2026-12-03', seq: 33 }),
      },
      logger: { info: () => {}, error: () => {} },
    });
    await publisher.recover();
    expect(submitted).toMatchObject([
      {
        type: 'publishLiabilities',
        snapshotId: '2026-12-03',
        leafCount: 1,
        columns: COLUMNS,
        totals: [5n, 6n, 0n, 0n],
      },
    ]);
    // Built twice (a second crash before the publish), the rows are replaced, not doubled.
    await publisher.publish('2026-12-03', 33);
    const { rows } = await store.query(`select 1 from liability_leaves where snapshot_id = '2026-12-03'`);
    expect(rows).toHaveLength(1);
    expect((submitted[1] as { root: string }).root).toBe((submitted[0] as { root: string }).root);
  });
});
