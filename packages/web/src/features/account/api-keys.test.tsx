import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render.tsx';
import { refreshSession } from '../../data/session.ts';
import { parseAllowlist } from '../../data/api-keys.ts';
import { closeAuthDialog } from '../auth/auth-dialogs.ts';
import { fakeAccountApi, ok } from '../auth/test-support.tsx';

const SLOW = { timeout: 10_000 };

const KEY = {
  id: 4,
  key: 'fx_0123456789abcdef0123456789abcdef',
  label: 'grid bot',
  scopes: ['read', 'trade'],
  ip_allowlist: ['203.0.113.7'],
  created_at: '2026-01-02T03:04:05.000Z',
  last_used_at: null,
  revoked: false,
};

describe('API keys page', () => {
  beforeEach(() => {
    localStorage.clear();
    closeAuthDialog();
    localStorage.setItem('token', 'T'.repeat(43));
    localStorage.setItem('accountNum', 'a@example.com');
    refreshSession();
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
    refreshSession();
  });

  it('lists keys, creates one whose secret shows once, and revokes after confirmation', async () => {
    let keys = [KEY];
    const { calls } = fakeAccountApi({
      '/api_keys/list': () => ok(keys),
      '/wallet/protection': () => ok({ method: 'totp', destination: null }),
      '/api_keys/create': (body) => {
        const created = {
          ...KEY,
          id: 5,
          key: 'fx_ffffffffffffffffffffffffffffffff',
          label: body.get('label') ?? '',
          scopes: (body.get('scopes') ?? '').split(','),
          ip_allowlist: [],
        };
        keys = [created, ...keys];
        return { type: 'ok', message: 'Created', key: { ...created, secret: 'ab'.repeat(32) } };
      },
      '/api_keys/revoke': () => {
        keys = keys.map((key) => ({ ...key, revoked: true }));
        return ok('Revoked');
      },
    });
    renderApp('/apiKeys');
    const table = await screen.findByTestId('api-keys-table', {}, SLOW);
    // How to sign is on the page itself, not a pointer into the project's source files.
    const signing = screen.getByTestId('api-keys-docs');
    for (const header of ['X-FX-KEY', 'X-FX-TIMESTAMP', 'X-FX-SIGNATURE'])
      expect(signing.textContent).toContain(header);
    expect(signing.textContent).not.toMatch(/\.ts\b|\.md\b|source/);
    expect(await within(table).findByText('grid bot', {}, SLOW)).toBeTruthy();
    expect(within(table).getByText('203.0.113.7')).toBeTruthy();
    expect(within(table).getByText('Never')).toBeTruthy();

    fireEvent.click(screen.getByTestId('api-key-create'));
    fireEvent.change(await screen.findByTestId('api-key-label', {}, SLOW), { target: { value: 'reader' } });
    // Withdraw is off by default and asks for an allowlist and the second factor when chosen.
    expect(screen.queryByTestId('api-key-totp')).toBeNull();
    fireEvent.click(screen.getByTestId('api-key-scope-withdraw'));
    expect(await screen.findByTestId('api-key-totp', {}, SLOW)).toBeTruthy();
    fireEvent.click(screen.getByTestId('api-key-create-ok'));
    expect(
      await screen.findByText('A key that can withdraw must have an IP allowlist.', {}, SLOW),
    ).toBeTruthy();
    expect(calls.some((call) => call.path === '/api_keys/create')).toBe(false);
    fireEvent.click(screen.getByTestId('api-key-scope-withdraw'));
    fireEvent.click(screen.getByTestId('api-key-create-ok'));

    expect((await screen.findByTestId('api-key-new-secret', {}, SLOW)).textContent).toBe('ab'.repeat(32));
    expect(screen.getByTestId('api-key-secret-warning').textContent).toContain('shown this once');
    const create = calls.find((call) => call.path === '/api_keys/create')!;
    expect(create.body.get('scopes')).toBe('read');
    expect(create.body.get('ips')).toBeNull();
    fireEvent.click(screen.getByTestId('api-key-secret-done'));
    await waitFor(() => expect(screen.queryByTestId('api-key-new-secret')).toBeNull());

    fireEvent.click(await screen.findByTestId('api-key-revoke-4', {}, SLOW));
    fireEvent.click(await screen.findByTestId('api-key-revoke-ok', {}, SLOW));
    expect(await screen.findByTestId('api-key-revoked-4', {}, SLOW)).toBeTruthy();
    expect(calls.find((call) => call.path === '/api_keys/revoke')!.body.get('id')).toBe('4');
  }, 40_000);

  it('reads an allowlist typed with commas, spaces or lines', () => {
    expect(parseAllowlist(' 1.2.3.4, 5.6.7.8\n9.9.9.9  ,,')).toEqual(['1.2.3.4', '5.6.7.8', '9.9.9.9']);
    expect(parseAllowlist('   ')).toEqual([]);
  });
});
