// Helpers for market-data tests on a real app: funded traders and trades through the engine runner.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Command } from '@fairex/engine';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, openTestStore } from '../helper.ts';
import type { BuildAppOptions } from '../../src/app.ts';

export const BTC_USDT = { marketId: 1, symbol: 'BTC/USDT', baseId: 1, quoteId: 3 };
export const SELLER = 900_001;

/** A live market (index, market maker, pushes) running twenty times faster than in production. */
export const FAST: Partial<BuildAppOptions> = {
  liveMarket: true,
  market: {
    intervals: { indexMs: 50, depthIntervalMs: 20, tickerIntervalMs: 50, candleFlushIntervalMs: 100 },
    maker: { intervalMs: 50 },
  },
};
export const BUYER = 900_002;

async function submit(app: FastifyInstance, command: Command): Promise<void> {
  const outcome = await app.runner.submit(command);
  if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
}

/** Deposits plenty of BTC for the seller and USDT for the buyer. */
export async function fundTraders(app: FastifyInstance): Promise<void> {
  await submit(app, {
    type: 'deposit',
    userId: SELLER,
    currencyId: BTC_USDT.baseId,
    amount: 1_000n * 100_000_000n,
  });
  await submit(app, {
    type: 'deposit',
    userId: BUYER,
    currencyId: BTC_USDT.quoteId,
    amount: 1_000_000_000n * 1_000_000n,
  });
}

/** One trade on BTC/USDT at `priceTicks` (hundredths of a USDT) for `lots` (0.0001 BTC each); the buyer takes. */
export async function trade(app: FastifyInstance, priceTicks: number, lots: number): Promise<void> {
  const order = {
    type: 'placeOrder',
    marketId: BTC_USDT.marketId,
    kind: 'limit',
    priceTicks,
    quantityLots: lots,
  } as const;
  await submit(app, { ...order, owner: SELLER, side: 'sell' });
  await submit(app, { ...order, owner: BUYER, side: 'buy' });
}

/** A resting bid that changes the book without trading. */
export async function restingBid(app: FastifyInstance, priceTicks: number, lots: number): Promise<void> {
  await submit(app, {
    type: 'placeOrder',
    owner: BUYER,
    marketId: BTC_USDT.marketId,
    side: 'buy',
    kind: 'limit',
    priceTicks,
    quantityLots: lots,
  });
}

export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * An app on a fresh store, listening on a free port, with pushes every 20 ms (books) and 40 ms (tickers) and
 * funded traders, for socket tests. Close the app, then the store.
 */
export async function listeningMarketApp(): Promise<{ store: Store; app: FastifyInstance; url: string }> {
  const store = await openTestStore();
  const app = await buildTestApp(store, {
    market: { intervals: { depthIntervalMs: 20, tickerIntervalMs: 40 } },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  await fundTraders(app);
  return { store, app, url };
}
