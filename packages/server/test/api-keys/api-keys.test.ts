// API keys for bots: created by a session with a label, scopes and an IP allowlist; the secret shown once
// and stored sealed; every signed request checked for its signature, timestamp window, replay, address and
// scope; a revoked key refused at once. The requests are signed with the documented example's own code.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDecimal, translate } from '@fairex/shared';
import { signedHeaders } from '../../../../scripts/api-key-example.ts';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, createUser, loginAs, openTestStore, removeTempDirs, tempDir } from '../helper.ts';
import { withdrawCode } from '../wallets/wallet-helper.ts';

const BTC = 1;
const USDT = 3;

let store: Store;
let app: FastifyInstance;
let userId: number;
let token: string;

type Reply = { type: string; message: unknown; key?: { id: number; key: string; secret: string } };
type Key = { id: number; key: string; secret: string; scopes: string[]; ip_allowlist: string[] };

async function session(url: string, payload: Record<string, unknown> = {}): Promise<Reply> {
  const response = await app.inject({
    method: 'POST',
    url: `/api${url}`,
    payload,
    headers: { authorization: token },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Reply;
}

async function createKey(payload: Record<string, unknown>): Promise<Key> {
  const reply = await session('/api_keys/create', payload);
  expect(reply.type, JSON.stringify(reply)).toBe('ok');
  return reply.key as Key;
}

async function signed(
  key: Key,
  method: 'GET' | 'POST',
  path: string,
  body: Record<string, unknown> | undefined = undefined,
  options: { ip?: string; timestampMs?: number; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const text = body === undefined ? '' : JSON.stringify(body);
  const headers = options.headers ?? signedHeaders({ ...key, method, path, body: text, ...options });
  const response = await app.inject({
    method,
    url: path,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    remoteAddress: options.ip ?? '127.0.0.1',
    ...(body === undefined ? {} : { payload: text }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Reply;
}

const refusal = (key: Parameters<typeof translate>[1], params = {}) => ({
  type: 'error',
  message: translate('en', key, params),
});

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store, { env: { DATA_DIR: await tempDir('fairex-api-keys-') } });
  await app.ready();
  userId = await createUser(store, { reviewStatus: 2 });
  token = await loginAs(store, userId);
  const outcome = await app.runner.submit({
    type: 'deposit',
    userId,
    currencyId: USDT,
    amount: parseDecimal('1000', 6),
  });
  expect(outcome.code).toBe(0);
});

afterAll(async () => {
  await app.close();
  await store.close();
  await removeTempDirs();
});

describe('creating, listing and revoking keys', () => {
  it('shows the secret once and keeps it only sealed', async () => {
    const key = await createKey({ label: 'bot 1', scopes: 'read' });
    expect(key.key).toMatch(/^fx_[0-9a-f]{32}$/);
    expect(key.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(key).toMatchObject({ label: 'bot 1', scopes: ['read'], ip_allowlist: [], revoked: false });
    const listed = (await session('/api_keys/list')).message as Record<string, unknown>[];
    expect(listed.find((row) => row.id === key.id)).not.toHaveProperty('secret');
    expect(JSON.stringify(listed)).not.toContain(key.secret);
    const { rows } = await store.query<{ secret_sealed: string }>(
      'select secret_sealed from api_keys where id = $1',
      [key.id],
    );
    expect(rows[0]?.secret_sealed).not.toContain(key.secret);
    expect(rows[0]?.secret_sealed).not.toContain(Buffer.from(key.secret).toString('base64'));
  });

  it('refuses bad scopes and addresses, and withdraw without an allowlist or the second factor', async () => {
    expect((await session('/api_keys/create', { label: 'x', scopes: 'admin' })).type).toBe('error');
    expect(await session('/api_keys/create', { label: 'x', scopes: 'read', ips: '1.2.3' })).toEqual(
      refusal('api_key.ip_invalid', { ip: '1.2.3' }),
    );
    expect(await session('/api_keys/create', { label: 'x', scopes: 'read,withdraw' })).toEqual(
      refusal('api_key.withdraw_needs_ips'),
    );
    expect(await session('/api_keys/create', { label: 'x', scopes: 'withdraw', ips: '10.0.0.9' })).toEqual(
      refusal('wallet.code_required_email'),
    );
    const key = await createKey({
      label: 'payouts',
      scopes: 'withdraw',
      ips: '10.0.0.9',
      code: await withdrawCode(store, userId),
    });
    expect(key.scopes).toEqual(['withdraw']);
  });
});

describe('signed requests', () => {
  it('a read key reads the user’s orders, and nothing but its scope', async () => {
    const key = await createKey({ label: 'reader', scopes: 'read' });
    const open = await signed(key, 'GET', '/api/orders/open?per_page=5');
    expect(open).toMatchObject({ type: 'ok', message: { total: 0 } });
    const order = { legal_id: USDT, currency_id: BTC, price: '20000', num: '0.001' };
    expect(await signed(key, 'POST', '/api/transaction/in', order)).toEqual(
      refusal('api_key.scope_missing', { scope: 'trade' }),
    );
    expect(app.engine.spot.openOrders(userId)).toEqual([]);
    // Calls outside every scope (key management, account, security) need a session.
    expect(await signed(key, 'GET', '/api/api_keys/list')).toEqual(refusal('api_key.call_not_allowed'));
    expect(await signed(key, 'POST', '/api/wallet/security_code', {})).toEqual(
      refusal('api_key.call_not_allowed'),
    );
  });

  it('a trade key places and cancels orders as its user', async () => {
    const key = await createKey({ label: 'trader', scopes: 'read,trade' });
    const order = {
      legal_id: USDT,
      currency_id: BTC,
      price: '20000',
      num: '0.001',
      time_in_force: 'post_only',
    };
    const placed = await signed(key, 'POST', '/api/transaction/in', order);
    expect(placed).toMatchObject({ type: 'ok', order: { status: 'resting' } });
    expect(app.engine.spot.openOrders(userId)).toHaveLength(1);
    const cancelled = await signed(key, 'POST', '/api/orders/cancel_all', {});
    expect(cancelled).toMatchObject({ type: 'ok', orders: { count: 1 } });
    expect(app.engine.spot.openOrders(userId)).toEqual([]);
  });

  it('refuses a wrong signature, a changed body, a stale or future timestamp, and a replay', async () => {
    const key = await createKey({ label: 'checks', scopes: 'read,trade' });
    const wrong = { ...key, secret: key.secret.replace(/^./, (c) => (c === '0' ? '1' : '0')) };
    expect(await signed(wrong, 'GET', '/api/orders/open')).toEqual(refusal('api_key.signature'));
    // Signed for one body, sent with another.
    const order = { legal_id: USDT, currency_id: BTC, price: '20000', num: '0.001' };
    const headers = signedHeaders({
      ...key,
      method: 'POST',
      path: '/api/transaction/in',
      body: JSON.stringify(order),
    });
    expect(await signed(key, 'POST', '/api/transaction/in', { ...order, num: '0.002' }, { headers })).toEqual(
      refusal('api_key.signature'),
    );
    expect(app.engine.spot.openOrders(userId)).toEqual([]);
    // Signed for one path, sent to another.
    const forOpen = signedHeaders({ ...key, method: 'GET', path: '/api/orders/open', body: '' });
    expect(await signed(key, 'GET', '/api/orders/history', undefined, { headers: forOpen })).toEqual(
      refusal('api_key.signature'),
    );
    for (const offset of [-6_000, 6_000]) {
      expect(
        await signed(key, 'GET', '/api/orders/open', undefined, { timestampMs: Date.now() + offset }),
      ).toEqual(refusal('api_key.stale', { seconds: 5 }));
    }
    const once = signedHeaders({ ...key, method: 'GET', path: '/api/orders/open', body: '' });
    expect((await signed(key, 'GET', '/api/orders/open', undefined, { headers: once })).type).toBe('ok');
    expect(await signed(key, 'GET', '/api/orders/open', undefined, { headers: once })).toEqual(
      refusal('api_key.replayed'),
    );
    const partial = { 'X-FX-KEY': key.key, 'X-FX-TIMESTAMP': String(Date.now()) };
    expect(await signed(key, 'GET', '/api/orders/open', undefined, { headers: partial })).toEqual(
      refusal('api_key.headers'),
    );
    const unknown = { ...key, key: `fx_${'0'.repeat(32)}` };
    expect(await signed(unknown, 'GET', '/api/orders/open')).toEqual(refusal('api_key.invalid'));
  });

  it('accepts only the allowed addresses', async () => {
    const key = await createKey({ label: 'office', scopes: 'read', ips: '10.1.2.3, 10.1.2.4' });
    expect(key.ip_allowlist).toEqual(['10.1.2.3', '10.1.2.4']);
    expect(await signed(key, 'GET', '/api/orders/open', undefined, { ip: '10.9.9.9' })).toEqual(
      refusal('api_key.ip_not_allowed', { ip: '10.9.9.9' }),
    );
    expect((await signed(key, 'GET', '/api/orders/open', undefined, { ip: '10.1.2.4' })).type).toBe('ok');
  });

  it('a withdraw key still needs the account’s second factor for each withdrawal', async () => {
    const listed = (await session('/api_keys/list')).message as { id: number; label: string }[];
    expect(listed.some((row) => row.label === 'payouts')).toBe(true);
    const key = await createKey({
      label: 'payouts 2',
      scopes: 'withdraw',
      ips: '10.0.0.9',
      code: await withdrawCode(store, userId),
    });
    const payout = { currency: USDT, number: '20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' };
    expect(await signed(key, 'POST', '/api/wallet/out', payout, { ip: '10.0.0.9' })).toEqual(
      refusal('wallet.code_required_email'),
    );
    const withCode = { ...payout, code: await withdrawCode(store, userId) };
    expect((await signed(key, 'POST', '/api/wallet/out', withCode, { ip: '10.0.0.9' })).type).toBe('ok');
  });

  it('a revoked key is refused at once, and only its owner can revoke it', async () => {
    const key = await createKey({ label: 'short-lived', scopes: 'read' });
    expect((await signed(key, 'GET', '/api/orders/open')).type).toBe('ok');
    const stranger = await loginAs(store, await createUser(store));
    const foreign = await app.inject({
      method: 'POST',
      url: '/api/api_keys/revoke',
      payload: { id: key.id },
      headers: { authorization: stranger },
    });
    expect(foreign.json()).toEqual(refusal('api_key.not_found'));
    expect(await session('/api_keys/revoke', { id: key.id })).toEqual({
      type: 'ok',
      message: translate('en', 'api_key.revoked'),
    });
    expect(await signed(key, 'GET', '/api/orders/open')).toEqual(refusal('api_key.invalid'));
    const listed = (await session('/api_keys/list')).message as { id: number; revoked: boolean }[];
    expect(listed.find((row) => row.id === key.id)?.revoked).toBe(true);
  });
});
