// The money calls for administrators take only a session that passed the second factor: a password-only
// session is refused on every one of them, with the back office's answer, before its input is read and
// without any change to money or the audit log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../src/admin/admins.ts';
import { AdminAuthenticator } from '../../src/admin/sessions.ts';
import { removeTempDirs } from '../helper.ts';
import { passSecondFactor } from '../helper-admin.ts';
import type { TestUser, WalletTestApp } from './wallet-helper.ts';
import { USDT, call, moneyState, newUser, ok, walletApp } from './wallet-helper.ts';

type Method = 'GET' | 'POST';

/** Every /api/admin/wallet route, with an input that would pass its checks. */
const ROUTES: [Method, string, (user: TestUser) => Record<string, unknown>][] = [
  ['GET', '/admin/wallet/withdrawals', () => ({ status: 'pending' })],
  ['POST', '/admin/wallet/withdrawal/approve', () => ({ id: 1 })],
  ['POST', '/admin/wallet/withdrawal/reject', () => ({ id: 1, reason: 'no' })],
  ['POST', '/admin/wallet/withdrawal/resend', () => ({ id: 1 })],
  ['POST', '/admin/wallet/withdrawal/confirm', () => ({ id: 1, tx_id: 'tx-1' })],
  ['POST', '/admin/wallet/deposit', (user) => ({ user_id: user.id, currency: USDT, amount: '5', note: 'n' })],
  ['POST', '/admin/wallet/house_fund', () => ({ currency: USDT, amount: '5', note: 'n' })],
  ['GET', '/admin/wallet/ledger', () => ({})],
  ['GET', '/admin/wallet/callbacks', () => ({})],
];

const REFUSAL = { type: 'error', message: 'Enter the code from your authenticator app first.' };

let test: WalletTestApp;
let user: TestUser;
let enrolling: string;
let unverified: string;

async function auditCount(): Promise<number> {
  const { rows } = await test.store.query<{ count: number }>('select count(*)::int as count from audit_log');
  return rows[0]?.count ?? -1;
}

beforeAll(async () => {
  test = await walletApp();
  user = await newUser(test.store);
  const sessions = new AdminAuthenticator(test.store);
  // One administrator who never enrolled an authenticator, and one who did but whose new session has not
  // passed a code.
  const newcomer = await createAdmin(test.store, {
    username: 'newcomer',
    password: 'newcomer-password-1',
    role: 'admin',
    createdBy: null,
  });
  enrolling = (await sessions.create(newcomer, '127.0.0.1')).token;
  const { rows } = await test.store.query<{ id: number }>(
    `select id from admins where username = 'treasurer'`,
  );
  const treasurer = rows[0]?.id ?? 0;
  unverified = (await sessions.create(treasurer, '127.0.0.1')).token;
});

afterAll(async () => {
  await test?.close();
  await removeTempDirs();
});

describe('administrator money calls with a password-only session', () => {
  it('lists every route the wallet area declares under /api/admin/wallet', () => {
    for (const [method, url] of ROUTES) expect(test.app.hasRoute({ method, url: `/api${url}` })).toBe(true);
  });

  it.each(ROUTES)(
    '%s %s asks an administrator without an authenticator to enrol',
    async (method, url, input) => {
      const before = moneyState(test.app);
      const audits = await auditCount();
      const reply = await call(test.app, url, input(user), enrolling, method);
      expect(reply).toEqual({ ...REFUSAL, second_factor: 'enrol' });
      expect(moneyState(test.app)).toBe(before);
      expect(await auditCount()).toBe(audits);
    },
  );

  it.each(ROUTES)('%s %s asks an enrolled administrator for the code', async (method, url, input) => {
    const before = moneyState(test.app);
    const audits = await auditCount();
    const reply = await call(test.app, url, input(user), unverified, method);
    expect(reply).toEqual({ ...REFUSAL, second_factor: 'required' });
    expect(moneyState(test.app)).toBe(before);
    expect(await auditCount()).toBe(audits);
  });

  it('refuses before reading the input', async () => {
    const reply = await call(test.app, '/admin/wallet/deposit', { amount: 'not a number' }, unverified);
    expect(reply).toEqual({ ...REFUSAL, second_factor: 'required' });
  });

  it('serves the same session once it passed the code', async () => {
    await passSecondFactor(test.app, enrolling);
    const ledger = await ok<{ list: unknown[] }>(test.app, '/admin/wallet/ledger', {}, enrolling, 'GET');
    expect(ledger.list.length).toBeGreaterThan(0);
  });
});
