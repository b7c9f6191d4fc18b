// Proof of liabilities end to end through the real engine, runner, log and routes (docs/transparency.md):
// the log is started, users hold money, an administrator takes a snapshot from the back office (audited),
// the tree is built on its worker and published as a log entry; every user's proof verifies against the
// entry, and the offline verifier (scripts/verify-liabilities.ts) checks it against a checkpoint fetched
// from the running server. A capture whose publication a stop interrupted is published at the next start.
//
// Needs the engine's `log` area (startLog, captureLiabilities, publishLiabilities, engine.log.status()) and
// the server's log routes (/api/log/checkpoint, /entries, /inclusion, /key), built beside this area.
import type { FastifyInstance } from 'fastify';
import type { Command } from '@fairex/engine';
import type { LiabilitiesLatestReply, LiabilitiesProofReply } from '@fairex/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { verifyLiabilitiesProof, verifyWithCheckpoint } from '../../../../scripts/verify-liabilities.ts';
import { signedInAdmin } from '../helper-admin.ts';
import {
  buildTestApp,
  createUser,
  loginAs,
  openTestStore,
  projected,
  removeTempDirs,
  tempDir,
} from '../helper.ts';

const USDT = 3;
let store: Store;
let app: FastifyInstance;
let env: Record<string, string>;
const users: number[] = [];

async function submit(command: unknown): Promise<void> {
  const outcome = await app.runner.submit(command as Command);
  if (outcome.code !== 0) throw new Error(`${(command as Command).type} refused with ${outcome.code}`);
  await projected(app);
}

async function get(url: string, token?: string) {
  await projected(app);
  const response = await app.inject({
    method: 'GET',
    url,
    headers: token === undefined ? {} : { authorization: token },
  });
  expect(response.statusCode).toBe(200);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return response.json() as { type: string; message: any };
}

/** Waits until `snapshotId` is the latest published snapshot (its tree is built in the background). */
async function publishedSnapshot(snapshotId: string): Promise<LiabilitiesLatestReply> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const reply = await get('/api/log/liabilities/latest');
    if (reply.type === 'ok' && reply.message?.snapshot_id === snapshotId) return reply.message;
    if (Date.now() > deadline) throw new Error(`snapshot ${snapshotId} was not published`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  store = await openTestStore();
  env = { DATA_DIR: await tempDir('fairex-liabilities-') };
  app = await buildTestApp(store, { env, transparencyLog: true });
  await app.ready();
  await submit({ type: 'startLog', origin: 'localhost/fairex-log', checkpointIntervalMs: 1_000 });
  for (let index = 0; index < 5; index += 1) {
    const userId = await createUser(store);
    users.push(userId);
    if (index < 4)
      await submit({ type: 'deposit', userId, currencyId: USDT, amount: BigInt(index + 1) * 1_000_000n });
  }
}, 300_000);

afterAll(async () => {
  await app?.close();
  await store?.close();
  await removeTempDirs();
});

describe('a snapshot taken from the back office', () => {
  let latest: LiabilitiesLatestReply;

  beforeAll(async () => {
    const admin = await signedInAdmin(app, store, { username: 'auditor', role: 'admin' });
    const response = await app.inject({
      method: 'POST',
      url: '/api/backoffice/liabilities/capture',
      headers: { authorization: admin },
      payload: { reason: 'an auditor asked' },
    });
    const reply = response.json() as { type: string; message: string };
    expect(reply.type).toBe('ok');
    const snapshotId = /Snapshot (\S+) is taken/.exec(reply.message)?.[1] as string;
    latest = await publishedSnapshot(snapshotId);
  }, 120_000);

  it('is audited', async () => {
    const { rows } = await store.query<{ target_id: string; detail: { reason: string } }>(
      `select target_id, detail from audit_log where action = 'liabilities.capture'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.target_id).toBe(latest.snapshot_id);
    expect(rows[0]?.detail.reason).toBe('an auditor asked');
  });

  it('is a log entry whose totals are the users’ USDT, with the ledger identity beside them', () => {
    expect(latest.leaves).toBe(4);
    expect(latest.totals.USDT).toBe('10000000');
    expect(latest.entry).toContain(`root ${latest.root}\n`);
    const usdt = latest.identity.find((line) => line.currency === 'USDT');
    expect(usdt?.users).toBe('10000000');
    expect(BigInt(usdt!.users) + BigInt(usdt!.exchange) + BigInt(usdt!.outside)).toBe(0n);
    expect(
      (app.engine as unknown as { log: { status(): { pendingLiabilities: unknown } } }).log.status(),
    ).toMatchObject({
      pendingLiabilities: null,
    });
  });

  it('gives every user their own proof, which verifies against the entry and a checkpoint of the log', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const checkpoint = await get('/api/log/checkpoint');
    for (const userId of users.slice(0, 4)) {
      const reply = await get(
        `/api/log/liabilities/proof?snapshot=${latest.snapshot_id}`,
        await loginAs(store, userId),
      );
      const proof = reply.message as LiabilitiesProofReply;
      expect(verifyLiabilitiesProof(proof, latest.entry)).toMatchObject({ ok: true });
      const lines = await verifyWithCheckpoint(proof, checkpoint.message.note as string, { url: address });
      expect(lines.at(-1)).toContain('is in your checkpoint');
    }
    const nobody = await get(
      `/api/log/liabilities/proof?snapshot=${latest.snapshot_id}`,
      await loginAs(store, users[4]!),
    );
    // A user who held nothing at the snapshot has no leaf: nothing to prove.
    expect(nobody).toEqual({ type: 'ok', message: null });
  });
});

describe('a capture a stop interrupted', () => {
  it('is published at the next start', async () => {
    await app.liabilities.publisher.capture('2026-12-06');
    await projected(app);
    await app.close();
    app = await buildTestApp(store, { env, transparencyLog: true });
    await app.ready();
    const latest = await publishedSnapshot('2026-12-06');
    expect(latest.leaves).toBe(4);
    expect(
      (app.engine as unknown as { log: { status(): { pendingLiabilities: unknown } } }).log.status(),
    ).toMatchObject({
      pendingLiabilities: null,
    });
  }, 120_000);
});
