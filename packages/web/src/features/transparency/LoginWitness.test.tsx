// The check at login: a signed-in user's balances are checked once per browser session and the result is
// said in a toast; a failure points to the transparency page.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { fakeApi, renderScreens } from '../news/test-support.tsx';
import { sessionStore } from '../../data/session.ts';
import { LoginWitness } from './LoginWitness.tsx';
import { buildLiabilities, buildTestLog, type TestLiabilities, type TestLog } from './log-test-support.ts';

let liabilities: TestLiabilities;
let log: TestLog;

beforeAll(async () => {
  liabilities = await buildLiabilities(
    's-1',
    ['USDT'],
    [
      ['4', [10n]],
      ['8', [20n]],
    ],
  );
  log = await buildTestLog([liabilities.entry]);
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  sessionStore.setState({ token: 'session-token', userId: '8' });
});

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStore.setState({ token: null, userId: null });
});

function open() {
  return renderScreens([{ path: '/', element: <LoginWitness /> }], '/');
}

describe('liabilities check at login', () => {
  it('says the balances are in the published total, once per browser session', async () => {
    const { calls } = fakeApi({
      ...log.handlers(),
      '/log/liabilities/latest': () => liabilities.latest(0),
      '/log/liabilities/proof': () => liabilities.proofOf('8', 0),
    });
    const first = open();
    const toast = await screen.findByTestId('login-witness');
    expect(toast.dataset.result).toBe('verified');
    expect(toast.textContent).toContain('are included in the published total');
    first.unmount();
    const before = calls.length;
    open();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls.length).toBe(before);
  });

  it('warns, with a link to the transparency page, when the proof does not add up', async () => {
    fakeApi({
      ...log.handlers(),
      '/log/liabilities/latest': () => liabilities.latest(0),
      '/log/liabilities/proof': () => ({ ...liabilities.proofOf('8', 0), amounts: ['19'] }),
    });
    open();
    const toast = await screen.findByTestId('login-witness');
    await waitFor(() => expect(toast.dataset.result).toBe('failed'));
    expect(toast.querySelector('a')?.getAttribute('href')).toBe('/transparency');
  });
});
