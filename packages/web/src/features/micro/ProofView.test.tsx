// The seconds proof view checks its two samples in the exchange's log against the checkpoint this browser
// holds, and says so plainly when a sample was recorded before the log started.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { MicroProof } from '@fairex/shared';
import { fakeApi, renderScreens } from '../news/test-support.tsx';
import { ProofView } from './ProofView.tsx';
import { FIRST, HEAD, SECOND } from '../price-record/test-vectors.ts';
import { buildTestLog, pricesEntry, type TestLog } from '../transparency/log-test-support.ts';

const PROOF: MicroProof = {
  id: 5,
  symbol: 'BTC/USDT',
  rule_version: 'fairex-micro-v2',
  rule: 'up wins when the end index is above the open index',
  settles_on: 'index',
  simulated_prices: false,
  type: 1,
  seconds: 30,
  profit_ratio: '0.8',
  number: '10',
  fee: '0',
  currency_name: 'USDT',
  accepted_time: FIRST.time - 500,
  expiry_time: SECOND.time,
  max_sample_age_ms: 2000,
  outcome: 'draw',
  void_reason: null,
  payout: '10',
  fee_refund: '0',
  open: { seq: 1, time: FIRST.time, price: '67250.12', stale: false, hash: FIRST.hash },
  end: { seq: 2, time: SECOND.time, price: '67250.12', stale: true, hash: SECOND.hash },
  proof: { head: HEAD, samples: [FIRST, SECOND] },
};

let log: TestLog;
beforeAll(async () => {
  log = await buildTestLog([
    pricesEntry(FIRST.time, [['BTC/USDT', 1, FIRST.hash]]),
    pricesEntry(SECOND.time, [['BTC/USDT', 2, SECOND.hash]]),
  ]);
});

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

function open() {
  return renderScreens([{ path: '/', element: <ProofView orderId={5} onClose={() => undefined} /> }], '/');
}

describe('seconds proof view', () => {
  it('finds both samples in log entries included in the held checkpoint', async () => {
    fakeApi({
      ...log.handlers(),
      '/microtrade/proof': () => PROOF,
      '/log/sample': (_, url) => {
        const index = Number(url.searchParams.get('seq')) - 1;
        return { index, entry: log.entries[index] };
      },
    });
    open();
    await waitFor(() =>
      expect(screen.getAllByTestId('micro-proof-log').map((line) => line.dataset.result)).toEqual([
        'included',
        'included',
      ]),
    );
    expect(screen.getAllByTestId('micro-proof-log')[1]!.textContent).toBe(
      'End sample: in log entry 1, included in the checkpoint of 2 entries this browser holds.',
    );
    expect(screen.getByTestId('micro-proof-chain').textContent).toContain(
      '(the head that came with the proof)',
    );
  });

  it('says a sample the log has no leaf for was recorded before the log started', async () => {
    fakeApi({
      ...log.handlers(),
      '/microtrade/proof': () => PROOF,
      '/log/sample': () =>
        new Response(JSON.stringify({ type: 'error', message: 'No log entry holds this sample.' })),
    });
    open();
    await waitFor(() =>
      expect(screen.getAllByTestId('micro-proof-log').map((line) => line.dataset.result)).toEqual([
        'before-log',
        'before-log',
      ]),
    );
    expect(screen.getAllByTestId('micro-proof-log')[0]!.textContent).toBe(
      'Open sample: recorded before the log started; only the hash chain covers it.',
    );
  });
});
