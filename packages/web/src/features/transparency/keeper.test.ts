// The checkpoint keeper: trust on first use of the log key, a checkpoint replaced only by one proven to
// extend it, and a fork, a changed key or a bad signature reported without changing what is held.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../news/test-support.tsx';
import { ensureConsistent, heldFor } from './keeper.ts';
import { buildTestLog, pricesEntry, signNote, testKey, type TestLog } from './log-test-support.ts';

const EXCHANGE = 'https://exchange.test';

function entries(count: number, salt = ''): string[] {
  return Array.from({ length: count }, (_, i) =>
    pricesEntry(1_700_000_000_000 + i * 1000, [['BTC/USDT', i + 1, `${salt}${i}`.padStart(64, 'a')]]),
  );
}

let log: TestLog;

beforeEach(async () => {
  localStorage.clear();
  log = await buildTestLog(entries(11));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('checkpoint keeper', () => {
  it('keeps the key and checkpoint it sees first, then accepts only consistent growth', async () => {
    fakeApi(log.handlers(3));
    const first = await ensureConsistent(EXCHANGE);
    expect(first.status === 'ok' && first.from).toBeNull();
    expect(heldFor(EXCHANGE)).toMatchObject({
      key: log.key.text,
      checkpoint: { size: 3, root: log.root(3) },
    });

    for (const size of [4, 8, 11]) {
      const { calls } = fakeApi(log.handlers(size));
      const next = await ensureConsistent(EXCHANGE);
      expect(next.status === 'ok' && next.checkpoint.size).toBe(size);
      expect(calls.some((call) => call.path === '/log/consistency')).toBe(true);
      expect(heldFor(EXCHANGE)?.checkpoint?.size).toBe(size);
    }
    // The same checkpoint again needs no proof.
    const { calls } = fakeApi(log.handlers(11));
    const same = await ensureConsistent(EXCHANGE);
    expect(same.status === 'ok' && same.from).toBe(11);
    expect(calls.some((call) => call.path === '/log/consistency')).toBe(false);
  });

  it('keeps the held checkpoint when the exchange serves an older one its held one extends', async () => {
    fakeApi(log.handlers(9));
    await ensureConsistent(EXCHANGE);
    // A lagging copy of the checkpoint, while the tree itself can prove the held one extends it.
    fakeApi({ ...log.handlers(), '/log/checkpoint': () => log.checkpoint(5) });
    const stale = await ensureConsistent(EXCHANGE);
    expect(stale.status === 'ok' && stale.checkpoint.size).toBe(9);
    expect(heldFor(EXCHANGE)?.checkpoint?.size).toBe(9);
  });

  it('reports a rewritten history as a fork, with both checkpoints, and keeps the held one', async () => {
    fakeApi(log.handlers(6));
    await ensureConsistent(EXCHANGE);
    const held = heldFor(EXCHANGE)!.checkpoint!;
    // The same key signs a log whose fourth entry was changed and rebuilt: every later root differs.
    const rewritten = await buildTestLog(
      entries(11).map((entry, i) => (i === 3 ? entry.replace('BTC/USDT 4', 'BTC/USDT 44') : entry)),
      log.key,
    );
    fakeApi(rewritten.handlers(10));
    const fork = await ensureConsistent(EXCHANGE);
    expect(fork.status).toBe('fork');
    if (fork.status !== 'fork') return;
    expect(fork.held).toEqual(held);
    expect(fork.served.size).toBe(10);
    expect(fork.served.note).toBe(rewritten.checkpoint(10).note);
    expect(heldFor(EXCHANGE)?.checkpoint).toEqual(held);
    // Shrinking to a different tree, or the same size with another root, is a fork too.
    fakeApi(rewritten.handlers(4));
    expect((await ensureConsistent(EXCHANGE)).status).toBe('fork');
    fakeApi(rewritten.handlers(6));
    expect((await ensureConsistent(EXCHANGE)).status).toBe('fork');
  });

  it('reports a checkpoint this browser holds that the log does not extend (forged or rewritten)', async () => {
    localStorage.setItem(
      'log_witness',
      JSON.stringify({
        [EXCHANGE]: {
          key: log.key.text,
          checkpoint: { size: 2, root: 'f'.repeat(64), note: 'forged\n', time: 1, verifiedAt: 1 },
        },
      }),
    );
    fakeApi(log.handlers());
    const fork = await ensureConsistent(EXCHANGE);
    expect(fork.status).toBe('fork');
  });

  it('does not take a new key silently', async () => {
    fakeApi(log.handlers(5));
    await ensureConsistent(EXCHANGE);
    const other = await buildTestLog(entries(5), testKey());
    fakeApi(other.handlers());
    const changed = await ensureConsistent(EXCHANGE);
    expect(changed).toMatchObject({
      status: 'key-changed',
      heldKey: log.key.text,
      servedKey: other.key.text,
    });
    expect(heldFor(EXCHANGE)?.key).toBe(log.key.text);
  });

  it('refuses a checkpoint not signed by the log key, or whose figures differ from its note', async () => {
    const handlers = log.handlers(5);
    const stranger = testKey();
    fakeApi({
      ...handlers,
      '/log/checkpoint': () => ({ ...log.checkpoint(5), note: signNote(stranger, 5, log.root(5)) }),
    });
    expect(await ensureConsistent(EXCHANGE)).toEqual({ status: 'invalid', reason: 'unsigned' });
    fakeApi({ ...handlers, '/log/checkpoint': () => ({ ...log.checkpoint(5), size: 6 }) });
    expect(await ensureConsistent(EXCHANGE)).toEqual({ status: 'invalid', reason: 'mismatch' });
    fakeApi({ ...handlers, '/log/key': () => ({ origin: 'other', key: log.key.text, public_key: 'x' }) });
    expect(await ensureConsistent(EXCHANGE)).toEqual({ status: 'invalid', reason: 'key' });
    expect(heldFor(EXCHANGE)).toBeNull();
  });
});
