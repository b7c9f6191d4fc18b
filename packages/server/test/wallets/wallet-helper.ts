// A test exchange for the wallet calls: the demo catalogue, a custody key, index prices, users with real-name
// approved, an administrator past the second factor, and helpers to call routes, send signed custody
// callbacks and check that every currency still sums to zero.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { custodySign } from '../../src/wallets/custody/protocol.ts';
import { buildTestApp, createUser, loginAs, openTestStore, tempDir } from '../helper.ts';
import { signedInAdmin } from '../helper-admin.ts';

export const BTC = 1;
export const ETH = 2;
export const USDT = 3;
export const CUSTODY_KEY = 'test-custody-key-0123';
/** BTC/USDT is market 1 with two price decimals: 65,000.00 USDT is 6,500,000 ticks. */
export const BTC_MARKET = 1;

export interface TestUser {
  id: number;
  token: string;
}

export interface WalletTestApp {
  store: Store;
  app: FastifyInstance;
  adminToken: string;
  close(): Promise<void>;
}

export interface Reply {
  type: string;
  message: unknown;
}

export async function walletApp(env: Record<string, string> = {}): Promise<WalletTestApp> {
  const store = await openTestStore();
  const dataDir = await tempDir('fairex-wallet-');
  const app = await buildTestApp(store, {
    env: { CUSTODY_API_KEY: CUSTODY_KEY, DATA_DIR: dataDir, ...env },
    sessionCacheMs: 0,
  });
  await app.ready();
  // The administrator calls need a session that passed the second factor, as the console's does.
  const adminToken = await signedInAdmin(app, store, { username: 'treasurer', role: 'admin' });
  return {
    store,
    app,
    adminToken,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

export async function newUser(store: Store, reviewStatus = 2): Promise<TestUser> {
  const id = await createUser(store, { reviewStatus });
  return { id, token: await loginAs(store, id) };
}

/**
 * A withdrawal code for the user, as POST /wallet/security_code sends it to the account's e-mail (stored the
 * same way: salted SHA-256, ten minutes, once), without the 60-second pause between two sends. Only the
 * latest code of a destination counts.
 */
export async function withdrawCode(store: Store, userId: number): Promise<string> {
  const { rows } = await store.query<{ email: string }>('select email from users where id = $1', [userId]);
  const email = rows[0]?.email;
  if (email === undefined) throw new Error(`user ${userId} has no e-mail`);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const salt = randomBytes(16).toString('hex');
  const hash = createHash('sha256').update(`${salt}:${code}`).digest('hex');
  await store.query(
    `insert into verification_codes (purpose, channel, destination, user_id, code_hash, salt, expires_at)
     values ('withdraw', 'email', $1, $2, $3, $4, now() + interval '10 minutes')`,
    [email, userId, hash, salt],
  );
  return code;
}

export async function setIndexPrice(
  app: FastifyInstance,
  marketId: number,
  priceTicks: number,
): Promise<void> {
  const outcome = await app.runner.submit({ type: 'recordIndexPrice', marketId, priceTicks });
  expect(outcome.code).toBe(0);
}

export async function call(
  app: FastifyInstance,
  url: string,
  payload: Record<string, unknown> = {},
  token?: string,
  method: 'GET' | 'POST' = 'POST',
): Promise<Reply> {
  const response = await app.inject({
    method,
    url: `/api${url}`,
    ...(method === 'POST' ? { payload } : { query: payload as Record<string, string> }),
    headers: token === undefined ? {} : { authorization: token },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Reply;
}

export async function ok<T = Record<string, unknown>>(
  app: FastifyInstance,
  url: string,
  payload: Record<string, unknown> = {},
  token?: string,
  method: 'GET' | 'POST' = 'POST',
): Promise<T> {
  const reply = await call(app, url, payload, token, method);
  expect(reply.type, JSON.stringify(reply)).toBe('ok');
  return reply.message as T;
}

/** A refusal: type error with a message, in the request's language. */
export async function refused(
  app: FastifyInstance,
  url: string,
  payload: Record<string, unknown>,
  token?: string,
): Promise<string> {
  const reply = await call(app, url, payload, token);
  expect(reply.type, JSON.stringify(reply)).toBe('error');
  expect(typeof reply.message).toBe('string');
  expect((reply.message as string).length).toBeGreaterThan(0);
  return reply.message as string;
}

/** Sends a custody callback signed with `key` (default: the configured one); returns the text reply. */
export async function callback(
  app: FastifyInstance,
  trade: Record<string, unknown>,
  options: { key?: string; timestampMs?: number; nonce?: string; sign?: string } = {},
): Promise<string> {
  const body = JSON.stringify(trade);
  const timestamp = String(options.timestampMs ?? Date.now());
  const nonce = options.nonce ?? Math.random().toString(36).slice(2, 8);
  const sign = options.sign ?? custodySign(body, options.key ?? CUSTODY_KEY, nonce, timestamp);
  const response = await app.inject({
    method: 'POST',
    url: '/api/custody/callback',
    payload: new URLSearchParams({ timestamp, nonce, sign, body }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(response.statusCode).toBe(200);
  return response.body;
}

/** A chain transaction id for tests: 64 lower-case hex digits, the SHA-256 of a label. */
export function txHash(label: string): string {
  return createHash('sha256').update(label).digest('hex');
}

/** A confirmed deposit report for an address. */
export function depositTrade(input: {
  address: string;
  amount: string;
  decimals: number;
  mainCoinType: string;
  coinType: string;
  txId: string;
  status?: number;
}): Record<string, unknown> {
  return {
    address: input.address,
    amount: input.amount,
    decimals: String(input.decimals),
    fee: '0',
    mainCoinType: input.mainCoinType,
    coinType: input.coinType,
    txId: input.txId,
    tradeId: `trade-${input.txId}`,
    tradeType: 1,
    status: input.status ?? 3,
    businessId: '',
    memo: '',
  };
}

/** Every currency's accounts sum to exactly zero, and no user balance is below zero. */
export function expectLedgerBalanced(app: FastifyInstance): void {
  app.engine.checkInvariants();
  const sums = new Map<number, bigint>();
  for (const account of app.engine.ledger.accounts()) {
    sums.set(account.currencyId, (sums.get(account.currencyId) ?? 0n) + account.available + account.locked);
    if (account.owner !== 'outside') expect(account.available >= 0n && account.locked >= 0n).toBe(true);
  }
  for (const [currencyId, sum] of sums) expect(sum, `currency ${currencyId}`).toBe(0n);
}

/** All accounts, and the open orders of `owners`, as text: a refused call must leave this unchanged. */
export function moneyState(app: FastifyInstance, owners: readonly number[] = []): string {
  return JSON.stringify(
    {
      accounts: app.engine.ledger.accounts(),
      orders: owners.map((owner) => app.engine.spot.openOrders(owner)),
    },
    (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
  );
}
