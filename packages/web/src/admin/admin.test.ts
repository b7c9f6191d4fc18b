import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createElement, type ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from './locales/en.json';
import zh from './locales/zh.json';
import hk from './locales/hk.json';
import kr from './locales/kr.json';
import jp from './locales/jp.json';
import { AdminApiError, adminApi } from '../data/admin-api.ts';
import { ADMIN_TOKEN_KEY, adminSession, clearAdminSession, storeAdminToken } from './session.ts';
import { makerSetting, ppmPercent } from './screens/MarketsPage.tsx';
import { shortTxId } from './screens/FundingPage.tsx';
import { MICRO_CONFIG, MICRO_RESERVE } from './screens/MicroPage.tsx';
import { useAdminMutation } from './components/common.tsx';
import { MessageProvider } from '../app/message.tsx';

function leaves(value: unknown, prefix = ''): Array<[string, unknown]> {
  if (typeof value !== 'object' || value === null) return [[prefix, value]];
  return Object.entries(value).flatMap(([key, child]) =>
    leaves(child, prefix === '' ? key : `${prefix}.${key}`),
  );
}

function placeholders(text: unknown): string[] {
  return [...String(text).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1] ?? '').sort();
}

const english = new Map(leaves(en));

describe("the console's texts", () => {
  for (const [language, messages] of Object.entries({ zh, hk, kr, jp })) {
    it(`${language} has exactly the keys and placeholders of en`, () => {
      const other = new Map(leaves(messages));
      expect([...other.keys()].sort()).toEqual([...english.keys()].sort());
      const mismatched = [...english].filter(
        ([key, text]) => placeholders(text).join() !== placeholders(other.get(key)).join(),
      );
      expect(mismatched).toEqual([]);
      expect([...other.values()].filter((text) => typeof text !== 'string' || text.trim() === '')).toEqual(
        [],
      );
    });
  }

  it('has every key the screens ask for by name', () => {
    const folder = import.meta.dirname;
    const files = ['.', 'components', 'screens'].flatMap((dir) =>
      readdirSync(join(folder, dir))
        .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.test.ts'))
        .map((name) => join(folder, dir, name)),
    );
    const used = new Set<string>();
    for (const file of files) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\b(?:t|adminT)\('([a-zA-Z0-9_.-]+)'/g))
        used.add(match[1] ?? '');
    }
    expect(used.size).toBeGreaterThan(200);
    expect([...used].filter((key) => !english.has(key))).toEqual([]);
  });
});

describe('the console client', () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    storeAdminToken('admin-token');
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    clearAdminSession();
  });

  const answer = (body: unknown) =>
    new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

  it("sends the administrator's token, never the user's, and reads the message of an ok answer", async () => {
    localStorage.setItem('token', 'user-token');
    fetchMock.mockResolvedValueOnce(answer({ type: 'ok', message: { total: 3 } }));
    await expect(adminApi.get('/backoffice/users', { q: 'a' })).resolves.toEqual({ total: 3 });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toMatch(/^\/api\/backoffice\/users\?q=a&lang=/);
    expect(new Headers(init?.headers).get('Authorization')).toBe('admin-token');
    localStorage.removeItem('token');
  });

  it('ends the console session on 999', async () => {
    fetchMock.mockResolvedValueOnce(answer({ type: '999', message: 'Please log in as an administrator.' }));
    await expect(adminApi.get('/backoffice/dashboard')).rejects.toMatchObject({ kind: 'signed-out' });
    expect(adminSession.getState().token).toBeNull();
    expect(sessionStorage.getItem(ADMIN_TOKEN_KEY)).toBeNull();
  });

  it('moves to the code step when the server asks for the second factor', async () => {
    fetchMock.mockResolvedValueOnce(
      answer({ type: 'error', message: 'Enter the code', second_factor: 'required' }),
    );
    const failure = adminApi.post('/backoffice/users/freeze', { id: 1 });
    await expect(failure).rejects.toBeInstanceOf(AdminApiError);
    await expect(failure).rejects.toMatchObject({ kind: 'second-factor', message: 'Enter the code' });
    expect(adminSession.getState()).toMatchObject({ token: 'admin-token', secondFactor: 'required' });
  });

  it("shows the server's refusal as it came, and sends bodies as JSON", async () => {
    fetchMock.mockResolvedValueOnce(answer({ type: 'error', message: 'Nothing was changed.' }));
    await expect(
      adminApi.post('/backoffice/markets/update', { id: 1, maker_fee: '0.1' }),
    ).rejects.toMatchObject({
      kind: 'rejected',
      message: 'Nothing was changed.',
    });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.body).toBe('{"id":1,"maker_fee":"0.1"}');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
  });
});

describe('market-maker card and deposits list', () => {
  it('names every market-maker setting the server sends, in its unit', () => {
    expect(ppmPercent(500)).toBe('0.05 %');
    expect(ppmPercent(10_000)).toBe('1 %');
    expect(ppmPercent(12_345)).toBe('1.2345 %');
    expect(makerSetting('halfSpreadPpm', 500)).toEqual({
      label: 'markets.maker.halfSpread',
      value: '0.05 %',
    });
    expect(makerSetting('intervalMs', 1_000)).toEqual({ label: 'markets.maker.interval', value: '1 s' });
    expect(makerSetting('levelNotional', '2000')).toEqual({
      label: 'markets.maker.levelNotional',
      value: '2000',
    });
    for (const key of [
      'levels',
      'halfSpreadPpm',
      'levelStepPpm',
      'levelNotional',
      'inventoryNotional',
      'maxCommandsPerCycle',
      'intervalMs',
    ]) {
      expect(makerSetting(key, 1).label).not.toBeNull();
    }
    // A key this screen does not know yet is still shown, under its own name.
    expect(makerSetting('newKnob', 3)).toEqual({ label: null, value: '3' });
  });

  it('shortens a chain transaction id so that the deposits list fits the screen', () => {
    const tx = 'ab'.repeat(32);
    expect(shortTxId(tx)).toBe(`${tx.slice(0, 10)}…${tx.slice(-8)}`);
    expect(shortTxId('short-id')).toBe('short-id');
  });
});

describe('the seconds contracts screen after a change', () => {
  // The screen reads its configuration and its reserve under these keys (MicroPage.tsx).
  const shown = [
    ['admin', 'micro', 'config'],
    ['admin', 'micro', 'reserve'],
  ];

  it('reads its configuration and its reserve again', async () => {
    const client = new QueryClient();
    for (const key of shown) client.setQueryData(key, { read: 1 });
    const wrapper = ({ children }: { children: ReactNode }) =>
      createElement(QueryClientProvider, { client }, createElement(MessageProvider, null, children));
    const { result } = renderHook(
      () => useAdminMutation(() => Promise.resolve('ok'), { invalidate: [MICRO_CONFIG, MICRO_RESERVE] }),
      { wrapper },
    );
    await act(() => result.current.mutateAsync(undefined));
    for (const key of shown) expect(client.getQueryState(key)?.isInvalidated, key.join('/')).toBe(true);
  });
});
