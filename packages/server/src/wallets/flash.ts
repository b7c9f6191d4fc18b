// Flash exchange: a coin against its legal currency (USDT <-> BTC by default, any configured pair), priced
// by the server from the coin's index price at the moment of the exchange, never from the client. The fee
// is a configured share of what the user receives; amounts have at most 8 decimals; the legal side of an
// exchange must come to at least 0.1 (spec 02 sections 2.4, 5 and 9).
//
//   received = amount x price(from) x (1 - fee) / price(to), rounded down to the receiving currency's scale
//
// (the formula is the engine's shared one, `@fairex/engine/calc`, which the web uses too). The house pays
// from its own inventory, the flash desk (its change wallet; flash-desk.ts); the engine refuses an exchange
// the house cannot pay. When the desk cannot cover an amount the refusal says so and names the largest
// amount it can fill now, computed exactly (flashLargestAmount), or that it holds none of the currency.
import { ResultCode } from '@fairex/engine';
import { FLASH_DECIMALS, flashLargestAmount, flashQuote } from '@fairex/engine/calc';
import { formatDecimal, paged, pow10 } from '@fairex/shared';
import { parseAmount } from './amounts.ts';
import type { Paged } from '@fairex/shared';
import type { FlashDirection, FlashList, FlashRecord } from '@fairex/shared/api/wallet.ts';
import type { Store } from '../store/index.ts';
import type { WalletCatalog, WalletCurrency } from './catalog.ts';
import type { WalletRunner } from './engine-calls.ts';
import { refuse, refuseEngineCode } from './engine-calls.ts';
import { submitCommand } from '../engine-runner/submit.ts';
import type { CoinPrice, PriceBook } from './prices.ts';
import { priceText } from './prices.ts';

/** The least the legal side of an exchange may be: 0.1 (of the legal currency). */
export const FLASH_MINIMUM = { value: 1n, scale: 1 } as const;
/** An index price older than this is not traded on. */
export const FLASH_PRICE_MAX_AGE_MS = 120_000;

export interface FlashPair {
  coin: string;
  legal: string;
}

/** FLASH_PAIRS: comma-separated COIN/LEGAL pairs, e.g. "BTC/USDT,ETH/USDT"; all must share one legal currency. */
export function parseFlashPairs(text: string): FlashPair[] {
  const pairs: FlashPair[] = [];
  for (const part of text.split(',')) {
    const match = /^\s*([A-Z0-9]{1,16})\/([A-Z0-9]{1,16})\s*$/.exec(part);
    if (!match) throw new Error(`FLASH_PAIRS: "${part.trim()}" is not COIN/LEGAL`);
    pairs.push({ coin: match[1] as string, legal: match[2] as string });
  }
  const legal = new Set(pairs.map((pair) => pair.legal));
  if (legal.size > 1) throw new Error('FLASH_PAIRS: every pair must have the same legal currency');
  return pairs;
}

/** Direction 0: legal -> coin (e.g. USDT to BTC); 1: coin -> legal (the shared contract's FlashDirection). */
export type { FlashDirection, FlashList, FlashRecord };

export interface FlashQuote {
  direction: FlashDirection;
  coin: WalletCurrency;
  legal: WalletCurrency;
  from: WalletCurrency;
  to: WalletCurrency;
  price: CoinPrice;
  amount: bigint;
  /** What the house pays (before the fee). */
  payout: bigint;
  fee: bigint;
  /** payout - fee: what the user receives. */
  received: bigint;
}

/**
 * Prices an exchange of `amount` (minor units of the paying currency). Pure: the route, the tests and the
 * record all compute the same numbers from the same inputs.
 */
export function quoteFlash(input: {
  direction: FlashDirection;
  coin: WalletCurrency;
  legal: WalletCurrency;
  price: CoinPrice;
  amount: bigint;
  feePpm: bigint;
}): FlashQuote {
  const { direction, coin, legal, price, amount, feePpm } = input;
  const from = direction === 0 ? legal : coin;
  const to = direction === 0 ? coin : legal;
  const { payout, fee, received } = flashQuote({
    direction,
    priceMinor: price.value,
    priceScale: price.scale,
    coinScale: coin.scale,
    legalScale: legal.scale,
    feePpm,
    amount,
  });
  return { direction, coin, legal, from, to, price, amount, payout, fee, received };
}

export class FlashService {
  private readonly store: Store;
  private readonly runner: WalletRunner;
  private readonly catalog: WalletCatalog;
  private readonly prices: PriceBook;
  private readonly pairs: FlashPair[];
  readonly feePpm: bigint;
  private readonly clock: () => number;

  constructor(deps: {
    store: Store;
    runner: WalletRunner;
    catalog: WalletCatalog;
    prices: PriceBook;
    pairs: FlashPair[];
    feePpm: bigint;
    clock?: () => number;
  }) {
    this.store = deps.store;
    this.runner = deps.runner;
    this.catalog = deps.catalog;
    this.prices = deps.prices;
    this.pairs = deps.pairs;
    this.feePpm = deps.feePpm;
    this.clock = deps.clock ?? Date.now;
  }

  /** The fee as a percent, e.g. "0.2". */
  get feePercent(): string {
    return formatDecimal(this.feePpm, 4, { trim: true });
  }

  async legal(): Promise<WalletCurrency | undefined> {
    const code = this.pairs[0]?.legal;
    return code === undefined ? undefined : this.catalog.currencyByCode(code);
  }

  /** The flash desk's currencies: the legal currency, then each configured coin in the catalogue. */
  async deskCurrencies(): Promise<WalletCurrency[]> {
    const legal = await this.legal();
    if (legal === undefined) return [];
    const currencies = [legal];
    for (const pair of this.pairs) {
      const coin = await this.catalog.currencyByCode(pair.coin);
      if (coin !== undefined && !currencies.some((known) => known.id === coin.id)) currencies.push(coin);
    }
    return currencies;
  }

  /**
   * The largest amount of `quote.from` the desk can fill now, at the quote's price: the most whose payout
   * the house's change wallet holds, at the paying currency's decimals; 0 when that is below the minimum
   * or would buy nothing.
   */
  largestFillable(quote: FlashQuote): bigint {
    const { direction, coin, legal, price, from, to } = quote;
    const desk = this.runner.engine.ledger.balance('house', 'change', to.id).available;
    const terms = {
      direction,
      priceMinor: price.value,
      priceScale: price.scale,
      coinScale: coin.scale,
      legalScale: legal.scale,
      feePpm: this.feePpm,
    };
    const step = from.scale > FLASH_DECIMALS ? pow10(from.scale - FLASH_DECIMALS) : 1n;
    let largest = flashLargestAmount({ ...terms, payoutMax: desk });
    largest -= largest % step;
    if (largest <= 0n) return 0n;
    const best = quoteFlash({ direction, coin, legal, price, amount: largest, feePpm: this.feePpm });
    const legalSide = direction === 0 ? best.amount : best.received;
    const minimum = FLASH_MINIMUM.value * pow10(legal.scale - FLASH_MINIMUM.scale);
    return best.received > 0n && legalSide >= minimum ? largest : 0n;
  }

  /** Refuses an exchange the desk cannot pay: with the largest amount it can fill now, or saying it has none. */
  private refuseBeyondDesk(quote: FlashQuote): never {
    const largest = this.largestFillable(quote);
    if (largest === 0n) refuse('wallet.flash_desk_empty', { currency: quote.to.code });
    // At most 8 decimals, as the amount is typed: a currency with more keeps its extra digits at zero.
    const extra = Math.max(0, quote.from.scale - FLASH_DECIMALS);
    refuse('wallet.flash_desk_short', {
      currency: quote.to.code,
      max: formatDecimal(largest / pow10(extra), quote.from.scale - extra),
      from: quote.from.code,
    });
  }

  /** flashAgainstList: the legal currency, the coins with their current prices, the fee percent. */
  async list(): Promise<FlashList> {
    const legal = await this.legal();
    const list = [];
    for (const pair of this.pairs) {
      const coin = await this.catalog.currencyByCode(pair.coin);
      if (!coin || !legal) continue;
      const price = this.freshPrice(coin, legal);
      list.push({
        id: coin.id,
        name: coin.code,
        scale: Math.min(coin.scale, FLASH_DECIMALS),
        price: price ? priceText(price) : null,
      });
    }
    return {
      legal: legal ? { id: legal.id, name: legal.code, scale: Math.min(legal.scale, FLASH_DECIMALS) } : null,
      list,
      fee: this.feePercent,
      min: formatDecimal(FLASH_MINIMUM.value, FLASH_MINIMUM.scale),
    };
  }

  private freshPrice(coin: WalletCurrency, legal: WalletCurrency): CoinPrice | undefined {
    const price = this.prices.priceOf(coin.id, legal.id);
    if (!price || price.value <= 0n || this.clock() - price.timeMs > FLASH_PRICE_MAX_AGE_MS) return undefined;
    return price;
  }

  /** Prices and executes an exchange for the user; the record says what happened. */
  async exchange(
    userId: number,
    direction: FlashDirection,
    coinId: number,
    number: string,
    label: string,
  ): Promise<FlashRecord> {
    const legal = await this.legal();
    const coin = await this.catalog.currency(coinId);
    if (!legal || !coin || !this.pairs.some((pair) => pair.coin === coin.code))
      refuse('wallet.flash_pair_unknown');
    const from = direction === 0 ? legal : coin;
    const amount = parseAmount(number, Math.min(from.scale, FLASH_DECIMALS), label);
    const price = this.freshPrice(coin, legal);
    if (!price) refuse('wallet.flash_price_unavailable', { currency: coin.code });
    const quote = quoteFlash({ direction, coin, legal, price, amount, feePpm: this.feePpm });
    const legalSide = direction === 0 ? quote.amount : quote.received;
    const minimum = FLASH_MINIMUM.value * pow10(legal.scale - FLASH_MINIMUM.scale);
    if (legalSide < minimum) {
      refuse('wallet.amount_too_small', {
        min: formatDecimal(FLASH_MINIMUM.value, FLASH_MINIMUM.scale),
        currency: legal.code,
      });
    }
    if (quote.received <= 0n) refuse('wallet.flash_too_small');
    if (this.runner.engine.ledger.balance(userId, 'change', from.id).available < quote.amount) {
      refuse('wallet.insufficient_balance');
    }
    if (this.runner.engine.ledger.balance('house', 'change', quote.to.id).available < quote.payout)
      this.refuseBeyondDesk(quote);
    return this.execute(userId, quote);
  }

  private async execute(userId: number, quote: FlashQuote): Promise<FlashRecord> {
    const { rows } = await this.store.query<{ id: number; created_at: Date }>(
      `insert into flash_exchanges (user_id, coin_currency_id, legal_currency_id, direction, amount, payout, fee,
                                    fee_ppm, price, index_price_time_ms, status)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending') returning id, created_at`,
      [
        userId,
        quote.coin.id,
        quote.legal.id,
        quote.direction,
        quote.amount.toString(),
        quote.payout.toString(),
        quote.fee.toString(),
        Number(this.feePpm),
        priceText(quote.price),
        quote.price.timeMs,
      ],
    );
    const row = rows[0] as { id: number; created_at: Date };
    const memo = `flash:${row.id}`;
    let outcome;
    try {
      outcome = await submitCommand(
        this.runner,
        {
          type: 'flashExchange',
          userId,
          fromCurrencyId: quote.from.id,
          toCurrencyId: quote.to.id,
          amount: quote.amount,
          payoutAmount: quote.payout,
          feeAmount: quote.fee,
          memo,
        },
        memo,
      );
    } catch (error) {
      await this.fail(row.id, 'engine unavailable');
      throw error;
    }
    if (outcome.code !== 0) {
      await this.fail(row.id, `engine code ${outcome.code}`);
      // The desk paid another exchange in between: say what it can still fill.
      if (outcome.code === ResultCode.houseInsufficientFunds) this.refuseBeyondDesk(quote);
      refuseEngineCode(outcome.code);
    }
    await this.store.query(`update flash_exchanges set status = 'done', engine_seq = $2 where id = $1`, [
      row.id,
      outcome.seq,
    ]);
    return this.toRecord({ ...quote, id: row.id, createdAt: row.created_at, status: 'done' });
  }

  private async fail(id: number, failure: string): Promise<void> {
    await this.store.query(`update flash_exchanges set status = 'failed', failure = $2 where id = $1`, [
      id,
      failure,
    ]);
  }

  private toRecord(
    input: Pick<FlashQuote, 'direction' | 'from' | 'to' | 'amount' | 'received' | 'fee' | 'price'> & {
      id: number;
      createdAt: Date;
      status: string;
    },
  ): FlashRecord {
    return {
      id: input.id,
      create_time: input.createdAt.toISOString(),
      type: input.direction,
      l_currency: input.from.code,
      r_currency: input.to.code,
      num: formatDecimal(input.amount, input.from.scale),
      price: priceText(input.price),
      absolute_quantity: formatDecimal(input.received, input.to.scale),
      fee: formatDecimal(input.fee, input.to.scale),
      status: input.status,
    };
  }

  async records(userId: number, page: number, perPage: number): Promise<Paged<FlashRecord>> {
    const total = await this.store.query<{ count: string | number }>(
      `select count(*) as count from flash_exchanges where user_id = $1 and status = 'done'`,
      [userId],
    );
    const { rows } = await this.store.query<{
      id: number;
      coin_currency_id: number;
      legal_currency_id: number;
      direction: FlashDirection;
      amount: string;
      payout: string;
      fee: string;
      price: string;
      status: string;
      created_at: Date;
    }>(
      `select id, coin_currency_id, legal_currency_id, direction, amount, payout, fee, price, status, created_at
         from flash_exchanges where user_id = $1 and status = 'done'
        order by id desc limit ${perPage} offset ${(page - 1) * perPage}`,
      [userId],
    );
    const records: FlashRecord[] = [];
    for (const row of rows) {
      const coin = await this.catalog.currency(row.coin_currency_id);
      const legal = await this.catalog.currency(row.legal_currency_id);
      if (!coin || !legal) continue;
      const from = row.direction === 0 ? legal : coin;
      const to = row.direction === 0 ? coin : legal;
      const fee = BigInt(row.fee);
      records.push({
        id: row.id,
        create_time: row.created_at.toISOString(),
        type: row.direction,
        l_currency: from.code,
        r_currency: to.code,
        num: formatDecimal(BigInt(row.amount), from.scale),
        price: row.price,
        absolute_quantity: formatDecimal(BigInt(row.payout) - fee, to.scale),
        fee: formatDecimal(fee, to.scale),
        status: row.status,
      });
    }
    return paged(records, page, perPage, Number(total.rows[0]?.count ?? 0));
  }

  /** Marks exchanges a crash left pending: done when account_log holds their payment, failed otherwise. */
  async reconcile(projected: () => Promise<unknown> = async () => {}): Promise<number> {
    const { rows } = await this.store.query<{ id: number; user_id: number }>(
      `select id, user_id from flash_exchanges where status = 'pending'`,
    );
    // An exchange missing from the account log is marked failed: the log must hold every committed command.
    if (rows.length > 0) await projected();
    for (const row of rows) {
      const logged = await this.store.query<{ seq: string | number }>(
        `select seq from account_log where owner_key = $1 and memo = $2 limit 1`,
        [row.user_id, `flash:${row.id}`],
      );
      const seq = logged.rows[0]?.seq;
      if (seq === undefined) await this.fail(row.id, 'not applied before a restart');
      else
        await this.store.query(`update flash_exchanges set status = 'done', engine_seq = $2 where id = $1`, [
          row.id,
          Number(seq),
        ]);
    }
    return rows.length;
  }
}
