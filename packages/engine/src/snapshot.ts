import { fromJsonValue, toJsonValue } from './codec.ts';
import { invariant } from './invariant.ts';
import { CHANGE_WALLET_INDEX, ownerKeyOf, walletIndexOf } from './ledger/accounts.ts';
import type { AccountOwner, Wallet } from './ledger/accounts.ts';
import { DEFAULT_MARKET_BAND_PPM } from './limits.ts';
import { createMarket } from './spot/markets.ts';
import { registerOrder, traderOf } from './spot/owner-orders.ts';
import { Order } from './spot/types.ts';
import type { Market, Side } from './spot/types.ts';
import { EngineState } from './state.ts';
import type { BookImplementation, EngineOptions } from './state.ts';

export const SNAPSHOT_FORMAT = 'fairex-engine-snapshot';
export const SNAPSHOT_VERSION = 1;

type OrderRow = [
  orderId: number,
  owner: AccountOwner,
  priceTicks: number,
  quantityLots: number,
  remainingLots: number,
  lockedAmount: string,
  acceptedTimeMs: number,
  clientOrderId: string | null,
];

type MarketRow = {
  marketId: number;
  baseCurrencyId: number;
  quoteCurrencyId: number;
  tickSize: string;
  lotSize: string;
  lotBaseMinor: string;
  quoteMinorPerTickLot: string;
  minimumLots: number;
  makerFeePpm: number;
  takerFeePpm: number;
  /** Written only when it differs from DEFAULT_MARKET_BAND_PPM, so older snapshots read the same. */
  bandPpm?: number;
  bids: OrderRow[];
  asks: OrderRow[];
  /** Stop-limit orders waiting for their trigger, oldest first; written only when there are any. */
  stops?: [side: Side, stopTicks: number, ...order: OrderRow][];
};

type SnapshotDocument = {
  format: string;
  version: number;
  lastSeq: number;
  timeMs: number;
  options: EngineOptions;
  counters: { nextOrderId: number; nextTradeId: number; nextTransferId: number; nextWithdrawalId: number };
  currencies: [currencyId: number, code: string, scale: number][];
  markets: MarketRow[];
  accounts: [owner: AccountOwner, wallet: Wallet, currencyId: number, available: string, locked: string][];
  withdrawals: [
    withdrawalId: number,
    userId: number,
    currencyId: number,
    amount: string,
    feeAmount: string,
    requestedTimeMs: number,
    memo: string | null,
  ][];
  /**
   * Idempotency keys, oldest first. The sixth field, the request's fingerprint, is written only when the key
   * has one: a snapshot written before fingerprints were kept restores to the same text and state hash.
   */
  idempotency: (
    | [scopedKey: string, timeMs: number, seq: number, commandType: string, reply: unknown]
    | [
        scopedKey: string,
        timeMs: number,
        seq: number,
        commandType: string,
        reply: unknown,
        fingerprint: string,
      ]
  )[];
  /**
   * Index prices by market, ascending. Written only when there is one, so that the snapshot text (and the
   * state hash) of a state without index prices is what it was before index prices existed.
   */
  indexPrices?: [marketId: number, priceTicks: number, timeMs: number][];
  /** Price chains by market, ascending; written only when there is one (same reason as indexPrices). */
  priceChains?: PriceChainRow[];
};

type PriceChainRow = [
  marketId: number,
  seq: number,
  hash: string,
  timeMs: number,
  stale: 0 | 1,
  indexTicks: number | null,
  markTicks: number | null,
  basisMicro: string,
  headSeq: number,
  headTimeMs: number,
  headHash: string,
];

/**
 * The whole state as canonical JSON text: every collection in a fixed order (ids ascending, book sides in
 * priority order, idempotency keys oldest first) and accounts with a zero balance left out, so equal states
 * give byte-equal text whatever path led to them. The state hash is the SHA-256 of this text.
 */
export function writeSnapshot(state: EngineState): string {
  const document: SnapshotDocument = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    lastSeq: state.lastSeq,
    timeMs: state.timeMs,
    options: { ...state.options },
    counters: {
      nextOrderId: state.nextOrderId,
      nextTradeId: state.nextTradeId,
      nextTransferId: state.ledger.nextTransferId,
      nextWithdrawalId: state.nextWithdrawalId,
    },
    currencies: [...state.currencies.values()]
      .sort((a, b) => a.currencyId - b.currencyId)
      .map((currency) => [currency.currencyId, currency.code, currency.scale]),
    markets: [...state.markets.values()].sort((a, b) => a.marketId - b.marketId).map(marketRow),
    accounts: [...state.ledger.accounts.values()]
      .filter((account) => account.available !== 0n || account.locked !== 0n)
      .sort((a, b) => a.key - b.key)
      .map((account) => [
        account.owner,
        account.wallet,
        account.currencyId,
        account.available.toString(),
        account.locked.toString(),
      ]),
    withdrawals: [...state.withdrawals.values()]
      .sort((a, b) => a.withdrawalId - b.withdrawalId)
      .map((withdrawal) => [
        withdrawal.withdrawalId,
        withdrawal.userId,
        withdrawal.currencyId,
        withdrawal.amount.toString(),
        withdrawal.feeAmount.toString(),
        withdrawal.requestedTimeMs,
        withdrawal.memo ?? null,
      ]),
    idempotency: [],
  };
  state.idempotency.forEach((scopedKey, entry) => {
    const row = [
      scopedKey,
      entry.timeMs,
      entry.seq,
      entry.commandType,
      toJsonValue(entry.reply) ?? null,
    ] as const;
    document.idempotency.push(entry.fingerprint === undefined ? [...row] : [...row, entry.fingerprint]);
  });
  if (state.indexPrices.size > 0) {
    document.indexPrices = [...state.indexPrices]
      .sort(([a], [b]) => a - b)
      .map(([marketId, index]) => [marketId, index.priceTicks, index.timeMs]);
  }
  if (state.priceChains.size > 0) {
    document.priceChains = [...state.priceChains]
      .sort(([a], [b]) => a - b)
      .map(([marketId, chain]) => [
        marketId,
        chain.seq,
        chain.hash,
        chain.timeMs,
        chain.stale ? 1 : 0,
        chain.indexTicks,
        chain.markTicks,
        chain.basisMicro.toString(),
        chain.headSeq,
        chain.headTimeMs,
        chain.headHash,
      ]);
  }
  return JSON.stringify(document);
}

function marketRow(market: Market): MarketRow {
  const bids: OrderRow[] = [];
  const asks: OrderRow[] = [];
  const row = (order: Order): OrderRow => [
    order.orderId,
    order.owner,
    order.priceTicks,
    order.quantityLots,
    order.remainingLots,
    order.lockedAmount.toString(),
    order.acceptedTimeMs,
    order.clientOrderId ?? null,
  ];
  market.book.forEachOrder('buy', (order) => bids.push(row(order)));
  market.book.forEachOrder('sell', (order) => asks.push(row(order)));
  const stops = market.stops.map((order): [Side, number, ...OrderRow] => [
    order.side,
    order.stopTicks,
    ...row(order),
  ]);
  return {
    marketId: market.marketId,
    baseCurrencyId: market.baseCurrencyId,
    quoteCurrencyId: market.quoteCurrencyId,
    tickSize: market.tickSize,
    lotSize: market.lotSize,
    lotBaseMinor: market.lotBaseMinor.toString(),
    quoteMinorPerTickLot: market.quoteMinorPerTickLot.toString(),
    minimumLots: market.minimumLots,
    makerFeePpm: market.makerFeePpm,
    takerFeePpm: market.takerFeePpm,
    ...(market.bandPpm === DEFAULT_MARKET_BAND_PPM ? {} : { bandPpm: market.bandPpm }),
    bids,
    asks,
    ...(stops.length === 0 ? {} : { stops }),
  };
}

/** Rebuilds a state from snapshot text. Throws on text that is not a snapshot of this version. */
export function readSnapshot(text: string, bookImplementation: BookImplementation): EngineState {
  const document = JSON.parse(text) as SnapshotDocument;
  if (document.format !== SNAPSHOT_FORMAT || document.version !== SNAPSHOT_VERSION) {
    throw new Error(`not a ${SNAPSHOT_FORMAT} version ${SNAPSHOT_VERSION}`);
  }
  const state = new EngineState({ ...document.options }, bookImplementation);
  state.lastSeq = document.lastSeq;
  state.timeMs = document.timeMs;
  state.nextOrderId = document.counters.nextOrderId;
  state.nextTradeId = document.counters.nextTradeId;
  state.ledger.nextTransferId = document.counters.nextTransferId;
  state.nextWithdrawalId = document.counters.nextWithdrawalId;
  for (const [currencyId, code, scale] of document.currencies)
    state.currencies.set(currencyId, { currencyId, code, scale });
  for (const [owner, wallet, currencyId, available, locked] of document.accounts) {
    const account = state.ledger.account(ownerKeyOrThrow(owner), walletIndexOf(wallet), currencyId);
    account.available = BigInt(available);
    account.locked = BigInt(locked);
  }
  const orders: Order[] = [];
  for (const row of document.markets) restoreMarket(state, row, orders);
  // Owner lists hold orders oldest first, which is ascending id; the book order was restored per side.
  orders.sort((a, b) => a.orderId - b.orderId);
  for (const order of orders) registerOrder(state, order);
  for (const [
    withdrawalId,
    userId,
    currencyId,
    amount,
    feeAmount,
    requestedTimeMs,
    memo,
  ] of document.withdrawals) {
    state.withdrawals.set(withdrawalId, {
      withdrawalId,
      userId,
      currencyId,
      amount: BigInt(amount),
      feeAmount: BigInt(feeAmount),
      account: state.ledger.account(userId, CHANGE_WALLET_INDEX, currencyId),
      requestedTimeMs,
      memo: memo ?? undefined,
    });
  }
  for (const [scopedKey, timeMs, seq, commandType, reply, fingerprint] of document.idempotency) {
    state.idempotency.remember(scopedKey, {
      timeMs,
      seq,
      commandType,
      reply: fromJsonValue(reply ?? undefined),
      ...(fingerprint === undefined ? {} : { fingerprint }),
    });
  }
  for (const [marketId, priceTicks, timeMs] of document.indexPrices ?? []) {
    invariant(state.markets.has(marketId), `snapshot has an index price for unknown market ${marketId}`);
    state.indexPrices.set(marketId, { priceTicks, timeMs });
  }
  for (const row of document.priceChains ?? []) {
    const [
      marketId,
      seq,
      hash,
      timeMs,
      stale,
      indexTicks,
      markTicks,
      basisMicro,
      headSeq,
      headTimeMs,
      headHash,
    ] = row;
    invariant(state.markets.has(marketId), `snapshot has a price chain for unknown market ${marketId}`);
    state.priceChains.set(marketId, {
      seq,
      hash,
      timeMs,
      stale: stale === 1,
      indexTicks,
      markTicks,
      basisMicro: BigInt(basisMicro),
      headSeq,
      headTimeMs,
      headHash,
    });
  }
  return state;
}

function restoreMarket(state: EngineState, row: MarketRow, orders: Order[]): void {
  const market = createMarket(state, {
    marketId: row.marketId,
    baseCurrencyId: row.baseCurrencyId,
    quoteCurrencyId: row.quoteCurrencyId,
    tickSize: row.tickSize,
    lotSize: row.lotSize,
    lotBaseMinor: BigInt(row.lotBaseMinor),
    quoteMinorPerTickLot: BigInt(row.quoteMinorPerTickLot),
    minimumLots: row.minimumLots,
    makerFeePpm: row.makerFeePpm,
    takerFeePpm: row.takerFeePpm,
  });
  if (row.bandPpm !== undefined) market.bandPpm = row.bandPpm;
  const restoreSide = (side: Side, rows: OrderRow[], stopTicksOf?: (index: number) => number): void => {
    for (const [
      index,
      [orderId, owner, priceTicks, quantityLots, remainingLots, lockedAmount, acceptedTimeMs, clientOrderId],
    ] of rows.entries()) {
      const trader = traderOf(state, ownerKeyOrThrow(owner));
      const isBuy = side === 'buy';
      const ledger = state.ledger;
      const order = new Order(
        orderId,
        trader,
        owner,
        market.marketId,
        side,
        'limit',
        priceTicks,
        quantityLots,
        BigInt(lockedAmount),
        clientOrderId ?? undefined,
        acceptedTimeMs,
        trader.changeAccount(ledger, isBuy ? market.quoteCurrencyId : market.baseCurrencyId),
        trader.changeAccount(ledger, isBuy ? market.baseCurrencyId : market.quoteCurrencyId),
      );
      order.remainingLots = remainingLots;
      order.filledLots = quantityLots - remainingLots;
      if (stopTicksOf === undefined) {
        market.book.rest(order);
      } else {
        order.stopTicks = stopTicksOf(index);
        market.stops.push(order);
      }
      orders.push(order);
    }
  };
  restoreSide('buy', row.bids);
  restoreSide('sell', row.asks);
  // Each waiting stop order restored in turn, so the stops keep their order.
  for (const [side, stopTicks, ...order] of row.stops ?? []) restoreSide(side, [order], () => stopTicks);
}

function ownerKeyOrThrow(owner: AccountOwner): number {
  const ownerKey = ownerKeyOf(owner);
  invariant(ownerKey !== 0, `snapshot names an invalid owner ${String(owner)}`);
  return ownerKey;
}
