import type { Command, Envelope } from './commands.ts';
import type { EngineEvent, Outcome } from './events.ts';
import { sha256HexOfText } from './hash/sha256.ts';
import { commandFingerprint, sameRequest, scopedIdempotencyKey } from './idempotency.ts';
import { invariant } from './invariant.ts';
import { checkStateInvariants } from './invariants.ts';
import { addCurrency } from './ledger/currencies.ts';
import { deposit, systemFund, transferBetweenWallets } from './ledger/funding.ts';
import { completeWithdrawal, rejectWithdrawal, requestWithdrawal } from './ledger/withdrawals.ts';
import { flashExchange } from './ledger/flash-exchange.ts';
import { WALLETS, ownerKeyOf, walletIndexOf } from './ledger/accounts.ts';
import type { Account, AccountOwner, Wallet } from './ledger/accounts.ts';
import { MAX_CURRENCY_ID, MAX_DEPTH_LEVELS, MAX_IDEMPOTENCY_KEY_LENGTH } from './limits.ts';
import { ResultCode } from './result-codes.ts';
import { readSnapshot, writeSnapshot } from './snapshot.ts';
import { cancelAllOrders, cancelOrder } from './spot/cancel-order.ts';
import { addMarket, setMarketBand, setMarketFees } from './spot/markets.ts';
import { openOrderViews, orderView } from './spot/owner-orders.ts';
import { bandLimitTicks, placeOrder } from './spot/place-order.ts';
import { recordIndexPrice } from './market/index-price.ts';
import type { IndexPrice } from './market/index-price.ts';
import { recordPriceSamples } from './market/price-record.ts';
import type { MarkPrice, PriceHead } from './market/price-record.ts';
import type { Depth, OrderView, Side } from './spot/types.ts';
import { EngineState, defaultEngineOptions } from './state.ts';
import type { BookImplementation, Currency, EngineOptions } from './state.ts';
import { isCount, isNatural, isText } from './validate.ts';

export type EngineCreateOptions = Partial<EngineOptions> & {
  /** Which book implementation to run; 'reference' is the test oracle. Not part of the state. */
  book?: BookImplementation;
};

export type Balance = { available: bigint; locked: bigint };

export type MarketView = {
  marketId: number;
  baseCurrencyId: number;
  quoteCurrencyId: number;
  tickSize: string;
  lotSize: string;
  lotBaseMinor: bigint;
  quoteMinorPerTickLot: bigint;
  minimumLots: number;
  makerFeePpm: number;
  takerFeePpm: number;
  /** Market-order price-protection band, ppm of the reference price (0: none). */
  bandPpm: number;
};

export type AccountView = {
  owner: AccountOwner;
  wallet: Wallet;
  currencyId: number;
  available: bigint;
  locked: bigint;
};

/**
 * The deterministic core: all money state (balances, books, pending withdrawals) and one method, apply, that
 * changes it one envelope at a time. It reads no clock, no randomness and does no I/O, so the same envelopes
 * always give the same state and the same state hash. Bad input never throws: it returns a non-zero result
 * code and leaves the state unchanged (the envelope's sequence number and time are still consumed, because
 * the journal holds every envelope and a replay must meet the same refusal). Only a broken invariant throws.
 */
export class Engine {
  private state: EngineState;

  private constructor(state: EngineState) {
    this.state = state;
  }

  static create(options: EngineCreateOptions = {}): Engine {
    const engineOptions: EngineOptions = {
      idempotencyWindowMs: options.idempotencyWindowMs ?? defaultEngineOptions.idempotencyWindowMs,
      idempotencyMaxKeys: options.idempotencyMaxKeys ?? defaultEngineOptions.idempotencyMaxKeys,
      maxOpenOrdersPerOwner: options.maxOpenOrdersPerOwner ?? defaultEngineOptions.maxOpenOrdersPerOwner,
    };
    invariant(isCount(engineOptions.idempotencyWindowMs, Number.MAX_SAFE_INTEGER), 'idempotencyWindowMs');
    invariant(isCount(engineOptions.idempotencyMaxKeys, 100_000_000), 'idempotencyMaxKeys');
    invariant(isCount(engineOptions.maxOpenOrdersPerOwner, 10_000_000), 'maxOpenOrdersPerOwner');
    return new Engine(new EngineState(engineOptions, options.book ?? 'fast'));
  }

  /** Rebuilds an engine from snapshot text and checks every invariant before handing it out. */
  static restore(text: string, options: { book?: BookImplementation } = {}): Engine {
    const engine = new Engine(readSnapshot(text, options.book ?? 'fast'));
    engine.checkInvariants();
    return engine;
  }

  get lastSeq(): number {
    return this.state.lastSeq;
  }

  /** The command time in force (the latest envelope time seen). */
  get timeMs(): number {
    return this.state.timeMs;
  }

  get bookImplementation(): BookImplementation {
    return this.state.bookImplementation;
  }

  apply(envelope: Envelope): Outcome {
    const state = this.state;
    if (typeof envelope !== 'object' || envelope === null) return refused(-1, ResultCode.invalidEnvelope);
    const { seq, timeMs, command, idempotencyKey } = envelope;
    if (!isCount(seq, Number.MAX_SAFE_INTEGER)) return refused(-1, ResultCode.invalidEnvelope);
    if (seq <= state.lastSeq) return refused(seq, ResultCode.sequenceNotIncreasing);
    if (!isNatural(timeMs, Number.MAX_SAFE_INTEGER)) return refused(seq, ResultCode.invalidEnvelope);
    // The envelope is accepted from here on: its sequence number and time are consumed even if the command
    // is refused. Time never runs backwards inside the engine, whatever the envelope says.
    state.lastSeq = seq;
    if (timeMs > state.timeMs) state.timeMs = timeMs;
    state.idempotency.evictExpired(state.timeMs);
    if (typeof command !== 'object' || command === null) return refused(seq, ResultCode.unknownCommand);

    let scopedKey: string | undefined;
    let fingerprint: string | undefined;
    if (idempotencyKey !== undefined) {
      if (!isText(idempotencyKey, MAX_IDEMPOTENCY_KEY_LENGTH))
        return refused(seq, ResultCode.invalidIdempotencyKey);
      scopedKey = scopedIdempotencyKey(command, idempotencyKey);
      fingerprint = commandFingerprint(command);
      const stored = state.idempotency.get(scopedKey);
      if (stored !== undefined) {
        // A key names one request: the same key with any other parameter is not a retry.
        if (!sameRequest(stored, command, fingerprint)) return refused(seq, ResultCode.idempotencyKeyReused);
        return {
          seq,
          code: ResultCode.ok,
          events: [],
          reply: stored.reply,
          duplicate: true,
          originalSeq: stored.seq,
        };
      }
    }

    const events: EngineEvent[] = [];
    state.ledger.events = events;
    state.reply = undefined;
    const code = dispatch(state, command);
    if (code !== ResultCode.ok) {
      invariant(events.length === 0, `command ${command.type} was refused with ${code} after changing state`);
      return refused(seq, code);
    }
    const reply = state.reply;
    state.reply = undefined;
    if (scopedKey !== undefined) {
      state.idempotency.remember(scopedKey, {
        timeMs: state.timeMs,
        seq,
        commandType: command.type,
        reply,
        ...(fingerprint === undefined ? {} : { fingerprint }),
      });
    }
    return { seq, code, events, reply };
  }

  snapshot(): string {
    return writeSnapshot(this.state);
  }

  /** SHA-256 (hex) of the canonical snapshot text: equal states, equal hashes. */
  stateHash(): string {
    return sha256HexOfText(writeSnapshot(this.state));
  }

  checkInvariants(): void {
    checkStateInvariants(this.state);
  }

  // Read side for the gateway. Each read is proportional to what it returns, never to the whole state.

  balance(owner: AccountOwner, wallet: Wallet, currencyId: number): Balance {
    const account = this.findAccount(owner, wallet, currencyId);
    return account === undefined
      ? { available: 0n, locked: 0n }
      : { available: account.available, locked: account.locked };
  }

  /** All six wallets of an owner in one currency. */
  wallets(owner: AccountOwner, currencyId: number): Record<Wallet, Balance> {
    const result = {} as Record<Wallet, Balance>;
    for (const wallet of WALLETS) result[wallet] = this.balance(owner, wallet, currencyId);
    return result;
  }

  /** A read never creates an account, and a malformed key finds nothing rather than another account. */
  private findAccount(owner: AccountOwner, wallet: Wallet, currencyId: number): Account | undefined {
    const ownerKey = ownerKeyOf(owner);
    const walletIndex = walletIndexOf(wallet);
    if (ownerKey === 0 || walletIndex < 0 || !isCount(currencyId, MAX_CURRENCY_ID)) return undefined;
    return this.state.ledger.findAccount(ownerKey, walletIndex, currencyId);
  }

  openOrders(owner: AccountOwner, marketId?: number): OrderView[] {
    const ownerKey = ownerKeyOf(owner);
    return ownerKey === 0 ? [] : openOrderViews(this.state, ownerKey, marketId);
  }

  order(orderId: number): OrderView | undefined {
    const order = this.state.orders.get(orderId);
    return order === undefined ? undefined : orderView(order);
  }

  /** Aggregated depth, best prices first: [priceTicks, quantityLots] per level, at most 1,000 levels. */
  depth(marketId: number, levels: number): Depth {
    const market = this.state.markets.get(marketId);
    const count = Math.max(0, Math.min(Math.floor(levels), MAX_DEPTH_LEVELS));
    return market === undefined || !(count > 0) ? { bids: [], asks: [] } : market.book.depth(count);
  }

  bestPrices(marketId: number): { bidTicks: number; askTicks: number } | undefined {
    const market = this.state.markets.get(marketId);
    return market === undefined
      ? undefined
      : { bidTicks: market.book.bestBidTicks(), askTicks: market.book.bestAskTicks() };
  }

  /**
   * The price-protection limit a market order on `side` would get if it arrived now: the worst price it
   * may fill at (0: no band, or no reference price). For the order form's estimate.
   */
  marketBandLimit(marketId: number, side: Side): number {
    const market = this.state.markets.get(marketId);
    return market === undefined ? 0 : bandLimitTicks(this.state, market, side);
  }

  /** The market's latest journaled index (mark) price and the time it was recorded; undefined before the first. */
  indexPrice(marketId: number): IndexPrice | undefined {
    return this.state.indexPrices.get(marketId);
  }

  /** The latest price sample's index and mark of a market (repeating the last good ones when stale). */
  markPrice(marketId: number): MarkPrice | undefined {
    const chain = this.state.priceChains.get(marketId);
    if (chain === undefined) return undefined;
    const { seq, timeMs, stale, indexTicks, markTicks } = chain;
    return { seq, timeMs, stale, indexTicks, markTicks };
  }

  /**
   * Whether a product may settle on the market's mark now: the latest sample is not stale, has a mark, and
   * is at most `maxAgeMs` older than the command time in force.
   */
  isMarkFresh(marketId: number, maxAgeMs: number): boolean {
    const chain = this.state.priceChains.get(marketId);
    return (
      chain !== undefined &&
      !chain.stale &&
      chain.markTicks !== null &&
      this.state.timeMs - chain.timeMs <= maxAgeMs
    );
  }

  /** The market's price chain head (latest sample) and its last published head. */
  priceChain(marketId: number): { latest: PriceHead; published: PriceHead } | undefined {
    const chain = this.state.priceChains.get(marketId);
    if (chain === undefined) return undefined;
    return {
      latest: { seq: chain.seq, timeMs: chain.timeMs, hash: chain.hash },
      published: { seq: chain.headSeq, timeMs: chain.headTimeMs, hash: chain.headHash },
    };
  }

  currency(currencyId: number): Currency | undefined {
    return this.state.currencies.get(currencyId);
  }

  currencies(): Currency[] {
    return [...this.state.currencies.values()].sort((a, b) => a.currencyId - b.currencyId);
  }

  market(marketId: number): MarketView | undefined {
    const market = this.state.markets.get(marketId);
    if (market === undefined) return undefined;
    return {
      marketId: market.marketId,
      baseCurrencyId: market.baseCurrencyId,
      quoteCurrencyId: market.quoteCurrencyId,
      tickSize: market.tickSize,
      lotSize: market.lotSize,
      lotBaseMinor: market.lotBaseMinor,
      quoteMinorPerTickLot: market.quoteMinorPerTickLot,
      minimumLots: market.minimumLots,
      makerFeePpm: market.makerFeePpm,
      takerFeePpm: market.takerFeePpm,
      bandPpm: market.bandPpm,
    };
  }

  markets(): MarketView[] {
    return [...this.state.markets.keys()].sort((a, b) => a - b).map((id) => this.market(id) as MarketView);
  }

  pendingWithdrawals(userId?: number): {
    withdrawalId: number;
    userId: number;
    currencyId: number;
    amount: bigint;
    feeAmount: bigint;
    requestedTimeMs: number;
    memo?: string;
  }[] {
    const result = [];
    for (const withdrawal of this.state.withdrawals.values()) {
      if (userId !== undefined && withdrawal.userId !== userId) continue;
      const { withdrawalId, currencyId, amount, feeAmount, requestedTimeMs, memo } = withdrawal;
      result.push({
        withdrawalId,
        userId: withdrawal.userId,
        currencyId,
        amount,
        feeAmount,
        requestedTimeMs,
        ...(memo === undefined ? {} : { memo }),
      });
    }
    return result;
  }

  /** Every account with a non-zero balance, in key order (for audits, tests and the admin console). */
  accounts(): AccountView[] {
    const result: AccountView[] = [];
    const accounts = [...this.state.ledger.accounts.values()].sort((a, b) => a.key - b.key);
    for (const account of accounts) {
      if (account.available === 0n && account.locked === 0n) continue;
      const { owner, wallet, currencyId, available, locked } = account;
      result.push({ owner, wallet, currencyId, available, locked });
    }
    return result;
  }

  /** Counts for monitoring. */
  stats(): { openOrders: number; accounts: number; pendingWithdrawals: number; idempotencyKeys: number } {
    const state = this.state;
    return {
      openOrders: state.orders.size,
      accounts: state.ledger.accounts.size,
      pendingWithdrawals: state.withdrawals.size,
      idempotencyKeys: state.idempotency.size,
    };
  }
}

function refused(seq: number, code: number): Outcome {
  return { seq, code, events: [] };
}

function dispatch(state: EngineState, command: Command): number {
  switch (command.type) {
    case 'addCurrency':
      return addCurrency(state, command);
    case 'deposit':
      return deposit(state, command);
    case 'systemFund':
      return systemFund(state, command);
    case 'transfer':
      return transferBetweenWallets(state, command);
    case 'requestWithdrawal':
      return requestWithdrawal(state, command);
    case 'completeWithdrawal':
      return completeWithdrawal(state, command);
    case 'rejectWithdrawal':
      return rejectWithdrawal(state, command);
    case 'flashExchange':
      return flashExchange(state, command);
    case 'addMarket':
      return addMarket(state, command);
    case 'setMarketFees':
      return setMarketFees(state, command);
    case 'placeOrder':
      return placeOrder(state, command);
    case 'cancelOrder':
      return cancelOrder(state, command);
    case 'cancelAllOrders':
      return cancelAllOrders(state, command);
    case 'setMarketBand':
      return setMarketBand(state, command);
    case 'recordIndexPrice':
      return recordIndexPrice(state, command);
    case 'recordPriceSamples':
      return recordPriceSamples(state, command);
    default:
      return ResultCode.unknownCommand;
  }
}
