// What the spot route tests share: the full app on a fresh store (PGlite, or PostgreSQL with DATABASE_URL),
// users with sessions, money deposited through the engine runner, and a call through app.inject() that
// insists on an HTTP 200 (the envelope says the rest).
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { parseDecimal } from '@fairex/shared';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, createUser, loginAs, openTestStore, projected, removeTempDirs } from '../helper.ts';

// The demo catalogue: BTC/USDT is market 1 and ETH/USDT market 2 (price scale 2, lot 0.0001, fees 0.1 %).
export const BTC = 1;
export const ETH = 2;
export const USDT = 3;
export const PAIR = { legal_id: USDT, currency_id: BTC };
export const ETH_PAIR = { legal_id: USDT, currency_id: ETH };

export interface Trader {
  id: number;
  token: string;
}

export interface SpotReply {
  type: string;
  message: unknown;
  order?: Record<string, unknown>;
  orders?: Record<string, unknown>;
}

export interface SpotTestApp {
  store: Store;
  app: FastifyInstance;
  /** POST /api<url> with the payload, as `token`'s user if given. */
  call(
    url: string,
    payload: Record<string, unknown>,
    token?: string,
    headers?: Record<string, string>,
  ): Promise<SpotReply>;
  /** A new user with a session. */
  trader(): Promise<Trader>;
  /** Credits `amount` (decimal text at `scale`) to the user's change wallet through the runner. */
  deposit(userId: number, currencyId: number, amount: string, scale: number): Promise<void>;
  close(): Promise<void>;
}

export async function startSpotTestApp(): Promise<SpotTestApp> {
  const store = await openTestStore();
  const app = await buildTestApp(store);
  await app.ready();
  return {
    store,
    app,
    async call(url, payload, token, headers = {}) {
      // What another user's command changed (a fill, a triggered stop) is projected behind the journal; the
      // caller's own writes are waited for by the app (read-your-writes), the rest here.
      await projected(app);
      const response = await app.inject({
        method: 'POST',
        url: `/api${url}`,
        payload,
        headers: { ...(token === undefined ? {} : { authorization: token }), ...headers },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as SpotReply;
    },
    async trader() {
      const id = await createUser(store);
      return { id, token: await loginAs(store, id) };
    },
    async deposit(userId, currencyId, amount, scale) {
      const outcome = await app.runner.submit({
        type: 'deposit',
        userId,
        currencyId,
        amount: parseDecimal(amount, scale),
      });
      expect(outcome.code).toBe(0);
    },
    async close() {
      await app.close();
      await store.close();
      await removeTempDirs();
    },
  };
}
