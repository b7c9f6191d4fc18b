import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type * as SocketModule from '../../data/socket.ts';
import type { FakeMarketSocket } from '../../data/market-test-support.ts';
import { fakeApi, renderScreens, type ApiHandler } from '../news/test-support.tsx';
import PriceRecordPage from './PriceRecordPage.tsx';
import { FIRST, HEAD, SECOND } from './test-vectors.ts';
import { buildTestLog, pricesEntry, type TestLog } from '../transparency/log-test-support.ts';

const fake = vi.hoisted(() => ({ socket: null as FakeMarketSocket | null }));

// Heads arrive on the real socket manager over an in-memory socket.
vi.mock('../../data/socket.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof SocketModule>();
  const { FakeMarketSocket } = await import('../../data/market-test-support.ts');
  const socket = new FakeMarketSocket();
  fake.socket = socket;
  return { ...actual, socketManager: new actual.SocketManager({ createSocket: () => socket }) };
});

const QUOTATIONS = [
  {
    name: 'USDT',
    quotation: [{ legal_id: 3, currency_id: 1, legal_name: 'USDT', currency_name: 'BTC', is_display: 1 }],
  },
];
const ETH_HEAD = { symbol: 'ETH/USDT', seq: 60, time: SECOND.time - 60_000, hash: 'e'.repeat(64) };

// The exchange's log: one entry per second, the first two naming the two test samples.
let log: TestLog;
beforeAll(async () => {
  log = await buildTestLog([
    pricesEntry(FIRST.time, [
      ['BTC/USDT', 1, FIRST.hash],
      ['ETH/USDT', 1, 'e'.repeat(64)],
    ]),
    pricesEntry(SECOND.time, [['BTC/USDT', 2, SECOND.hash]]),
    pricesEntry(SECOND.time + 1000, [['BTC/USDT', 3, 'c'.repeat(64)]]),
  ]);
});

beforeEach(() => {
  localStorage.clear();
});

function sampleLeaf(_: URLSearchParams, url: URL) {
  const seq = Number(url.searchParams.get('seq'));
  const index = seq - 1;
  if (log.entries[index] === undefined) {
    return new Response(JSON.stringify({ type: 'error', message: 'No log entry holds this sample.' }));
  }
  return { index, entry: log.entries[index] };
}

function serve(overrides: Record<string, ApiHandler> = {}) {
  return fakeApi({
    ...log.handlers(),
    '/log/sample': sampleLeaf,
    '/currency/quotation_new': () => QUOTATIONS,
    '/price/heads': () => ({ heads: [HEAD, ETH_HEAD] }),
    '/price/samples': () => ({ symbol: 'BTC/USDT', samples: [FIRST, SECOND] }),
    '/price/proof': () => ({ symbol: 'BTC/USDT', head: HEAD, samples: [FIRST, SECOND] }),
    ...overrides,
  });
}

function open(path = '/priceRecord') {
  return renderScreens([{ path: '/priceRecord', element: <PriceRecordPage /> }], path);
}

const lookup = `/priceRecord?symbol=BTC%2FUSDT&at=${FIRST.time}`;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('price record page', () => {
  it('lists the latest heads in UTC+8 with short hashes, and adds a published head live', async () => {
    serve();
    open();
    const heads = await screen.findAllByTestId('price-head-row');
    expect(heads.map((row) => row.dataset.symbol)).toEqual(['BTC/USDT', 'ETH/USDT']);
    expect(heads[0]!.textContent).toContain('2023-11-15 06:13:21'); // 22:13:21 UTC
    expect(heads[0]!.textContent).toContain('78f95e1a…81d9c84b');
    expect(heads[0]!.querySelector('code')?.dataset.hash).toBe(HEAD.hash);
    const next = {
      type: 'price_head',
      symbol: 'BTC/USDT',
      seq: 62,
      time: SECOND.time + 60_000,
      hash: 'c'.repeat(64),
    };
    // Heads are pushed to each market's channel: the page holds the channels of the listed markets.
    await waitFor(() => expect(fake.socket!.subscriptions()).toContain('market:BTC/USDT'));
    act(() => fake.socket!.push('price_head', next));
    await waitFor(() => expect(screen.getAllByTestId('price-head-row')).toHaveLength(3));
    expect(screen.getAllByTestId('price-head-row')[0]!.textContent).toContain('62');
    // A malformed push is not shown.
    act(() => fake.socket!.push('price_head', { symbol: 'BTC/USDT', seq: 63, time: 1, hash: 'nope' }));
    expect(screen.getAllByTestId('price-head-row')).toHaveLength(3);
  });

  it('says so when no head is published yet, and offers a retry when the heads cannot be loaded', async () => {
    serve({ '/price/heads': () => ({ heads: [] }) });
    const first = open();
    expect(await screen.findByText('No head has been published yet.')).toBeTruthy();
    first.unmount();
    serve({ '/price/heads': () => ({ unexpected: true }) });
    open();
    expect(await screen.findByText('The price record could not be loaded.')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Retry' }).length).toBeGreaterThan(0);
  });

  it('looks up the samples of the minute around a time and shows their prices, sources and state', async () => {
    const { calls } = serve();
    const { router } = open();
    fireEvent.change(await screen.findByTestId('lookup-time'), { target: { value: '2023-11-15T06:13:20' } });
    await waitFor(() => expect(screen.getByTestId('lookup-submit').hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByTestId('lookup-submit'));
    const rows = await screen.findAllByTestId('price-sample-row');
    expect(router.state.location.search).toBe(`?symbol=BTC%2FUSDT&at=${FIRST.time}`);
    const samplesCall = calls.find((call) => call.path === '/price/samples');
    expect(samplesCall).toBeDefined();
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('67,250.12');
    expect(rows[0]!.textContent).toContain('binance 67,250.10 · okx 67,250.14');
    expect(rows[0]!.textContent).toContain('Fresh');
    expect(rows[1]!.textContent).toContain('Stale');
    expect(rows[1]!.textContent).toContain('None');
  });

  it('checks the log first, and verifies a sample in the log entry included in the held checkpoint', async () => {
    serve();
    open(lookup);
    const keeper = await screen.findByTestId('log-consistent');
    expect(keeper.textContent).toContain('First visit');
    expect(screen.getByTestId('log-key').textContent).toBe(log.key.text);
    expect(screen.getByTestId('log-checkpoint-size').textContent).toBe('3');
    const rows = await screen.findAllByTestId('price-sample-row');
    fireEvent.click(within(rows[0]!).getByTestId('sample-verify-1'));
    const result = await screen.findByTestId('proof-result');
    await waitFor(() => expect(result.dataset.result).toBe('verified'));
    expect(result.textContent).toContain(
      "Verified: the sample's hash, recomputed in this browser, is in log entry 0, included in the checkpoint of 3 entries this browser holds.",
    );
    await waitFor(() => expect(result.dataset.chain).toBe('verified'));
    expect(result.textContent).toContain(
      'Hash chain: 2 entries recomputed in this browser lead to head No. 2 (2023-11-15 06:13:21), the head that came with the proof.',
    );
    expect(result.textContent).not.toContain('published at');
  });

  it('reports a mismatch when a sample does not hash to its contents', async () => {
    const changed = { ...FIRST, index_price: '67250.13' };
    serve({
      '/price/samples': () => ({ symbol: 'BTC/USDT', samples: [changed, SECOND] }),
      '/price/proof': () => ({ symbol: 'BTC/USDT', head: HEAD, samples: [changed, SECOND] }),
    });
    open(`${lookup}&seq=1`);
    const result = await screen.findByTestId('proof-result');
    await waitFor(() => expect(result.dataset.result).toBe('hash'));
    await waitFor(() => expect(result.dataset.chain).toBe('mismatch'));
    expect(result.textContent).toContain('Mismatch at entry No. 1: its hash does not match its contents.');
  });

  it('reports a log entry that names another hash for the sample', async () => {
    serve({ '/log/sample': () => ({ index: 2, entry: log.entries[2] }) });
    open(`${lookup}&seq=1`);
    const result = await screen.findByTestId('proof-result');
    await waitFor(() => expect(result.dataset.result).toBe('mismatch'));
    expect(result.textContent).toContain('the log entry does not name this sample');
  });

  it('says a sample is not yet in a held checkpoint, or was recorded before the log started', async () => {
    serve({ ...log.handlers(1), '/log/sample': sampleLeaf });
    const first = open(`${lookup}&seq=2`);
    const result = await screen.findByTestId('proof-result');
    await waitFor(() => expect(result.dataset.result).toBe('pending'));
    expect(result.textContent).toContain('Not yet in a checkpoint this browser holds.');
    first.unmount();
    serve({
      '/log/sample': () =>
        new Response(JSON.stringify({ type: 'error', message: 'No log entry holds this sample.' })),
    });
    open(`${lookup}&seq=2`);
    const before = await screen.findByTestId('proof-result');
    await waitFor(() => expect(before.dataset.result).toBe('before-log'));
    expect(before.textContent).toContain('Recorded before the log started');
  });

  it('shows the fork warning with both checkpoints, and checks no proof, when the log does not extend the held one', async () => {
    localStorage.setItem(
      'log_witness',
      JSON.stringify({
        [location.origin]: {
          key: log.key.text,
          checkpoint: { size: 2, root: 'f'.repeat(64), note: 'held note\n', time: 1, verifiedAt: 1 },
        },
      }),
    );
    serve();
    open(`${lookup}&seq=1`);
    const warning = await screen.findByTestId('log-fork-warning');
    expect(warning.textContent).toContain(
      "The exchange's log is not consistent with what this browser saw before: it may have rewritten its history.",
    );
    expect((await screen.findByTestId('log-download-held')).getAttribute('download')).toBe(
      'checkpoint-held-2.txt',
    );
    expect((await screen.findByTestId('log-download-served')).getAttribute('download')).toBe(
      'checkpoint-served-3.txt',
    );
    const result = await screen.findByTestId('proof-result');
    await waitFor(() => expect(result.dataset.result).toBe('blocked'));
    expect(log.entries.length).toBe(3);
  });

  it('says the chain is not yet covered when no published head reaches the sample', async () => {
    serve({
      '/price/heads': () => ({ heads: [{ ...HEAD, seq: 1, hash: FIRST.hash }] }),
      '/price/proof': () =>
        new Response(JSON.stringify({ type: 'error', message: 'Not yet covered by a published head.' })),
    });
    open(`${lookup}&seq=2`);
    const result = await screen.findByTestId('proof-result');
    await waitFor(() => expect(result.dataset.chain).toBe('uncovered'));
    expect(result.textContent).toContain(
      'Not yet covered by a published head. Heads are published once a minute',
    );
    await waitFor(() => expect(result.dataset.result).toBe('verified'));
  });
});
