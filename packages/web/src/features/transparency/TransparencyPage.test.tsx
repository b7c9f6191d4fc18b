// The transparency page and the user's liabilities check, against a log and a sum tree built in the test:
// the published totals and identity with the entry's inclusion, the user's balances verified, a proof
// with one sibling sum lowered refused, a user with nothing in the snapshot, and no snapshot yet.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { fakeApi, renderScreens, type ApiHandler } from '../news/test-support.tsx';
import { sessionStore } from '../../data/session.ts';
import TransparencyPage from './TransparencyPage.tsx';
import {
  buildLiabilities,
  buildTestLog,
  pricesEntry,
  type TestLiabilities,
  type TestLog,
} from './log-test-support.ts';

const COLUMNS = ['BTC', 'USDT', 'USDT:upnl+', 'USDT:upnl-'];
let liabilities: TestLiabilities;
let log: TestLog;

beforeAll(async () => {
  liabilities = await buildLiabilities('daily-2025-12-07', COLUMNS, [
    ['31', [0n, 125_000_000n, 0n, 3_000_000n]],
    ['7', [5_000n, 0n, 0n, 0n]],
    ['12', [1n, 2n, 3n, 0n]],
  ]);
  log = await buildTestLog([
    pricesEntry(1_765_065_599_000, [['BTC/USDT', 1, 'a'.repeat(64)]]),
    liabilities.entry,
    pricesEntry(1_765_065_601_000, [['BTC/USDT', 2, 'b'.repeat(64)]]),
  ]);
});

beforeEach(() => {
  localStorage.clear();
  sessionStore.setState({ token: 'session-token', userId: '31' });
});

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStore.setState({ token: null, userId: null });
});

function serve(overrides: Record<string, ApiHandler> = {}) {
  return fakeApi({
    ...log.handlers(),
    '/log/liabilities/latest': () => liabilities.latest(1),
    '/log/liabilities/proof': () => liabilities.proofOf('31', 1),
    ...overrides,
  });
}

function open() {
  return renderScreens([{ path: '/transparency', element: <TransparencyPage /> }], '/transparency');
}

describe('transparency page', () => {
  it('shows the published totals and identity, checked in the held checkpoint, and what is not proven', async () => {
    serve();
    open();
    const inclusion = await screen.findByTestId('liabilities-inclusion');
    expect(inclusion.dataset.result).toBe('included');
    const totals = within(screen.getByTestId('liabilities-totals')).getAllByRole('row');
    expect(totals.map((row) => row.textContent)).toEqual([
      'ColumnTotal (smallest units)',
      'BTC5001',
      'USDT125000002',
      'USDT:upnl+3',
      'USDT:upnl-3000000',
    ]);
    expect(screen.getByTestId('liabilities-identity').textContent).toContain('-125000002');
    expect(screen.getByTestId('liabilities-snapshot').textContent).toBe(
      'Snapshot daily-2025-12-07 of 2025-12-07 08:00:00, 3 users',
    );
    expect(screen.getByTestId('reserves-note').textContent).toContain('Reserves: not proven on chain.');
    expect(screen.getByTestId('log-key').textContent).toBe(log.key.text);
    expect(screen.getByTestId('log-verify-yourself').textContent).toContain('npm run witness -- ');
  });

  it("verifies the user's balances in the published total", async () => {
    const { calls } = serve();
    open();
    const mine = await screen.findByTestId('my-liabilities');
    await waitFor(() => expect(mine.dataset.result).toBe('verified'));
    expect(mine.textContent).toContain(
      'Your balances on 2025-12-07 08:00:00 are included in the published total.',
    );
    expect(mine.textContent).toContain('USDT 125000000');
    expect(mine.textContent).toContain('USDT:upnl- 3000000');
    const proofCall = calls.find((call) => call.path === '/log/liabilities/proof');
    expect(proofCall).toBeDefined();
  });

  it('shows the warning when one sibling sum in the served proof is lowered', async () => {
    serve({
      '/log/liabilities/proof': () => {
        const proof = liabilities.proofOf('31', 1);
        const path = proof.path as { hash: string; sums: string[] }[];
        path[0]!.sums[0] = String(BigInt(path[0]!.sums[0]!) - 1n);
        return proof;
      },
    });
    open();
    const mine = await screen.findByTestId('my-liabilities');
    await waitFor(() => expect(mine.dataset.result).toBe('failed'));
    expect(mine.textContent).toContain('Your balances could not be shown to be in the published total');
  });

  it('says when the user had nothing in the snapshot, and when there is no snapshot yet', async () => {
    serve({ '/log/liabilities/proof': () => null });
    const first = open();
    const mine = await screen.findByTestId('my-liabilities');
    await waitFor(() => expect(mine.dataset.result).toBe('nothing'));
    expect(mine.textContent).toContain('You held no balance in the snapshot of 2025-12-07 08:00:00');
    first.unmount();
    serve({ '/log/liabilities/latest': () => null });
    open();
    const none = await screen.findByTestId('my-liabilities');
    await waitFor(() => expect(none.dataset.result).toBe('none'));
    expect(none.textContent).toContain('No liabilities snapshot has been published yet.');
  });
});
