// The product calls' work (docs/products.md): reads from the engine's products area (products, running
// holdings and what they accrued) and from the products projections (earnings lines, extractions, ended
// stakes, history); purchases, extractions and early exits as engine commands through submitOrRefuse.
import type { Command, Engine, EngineEvent, HoldingView, ProductView } from '@fairex/engine';
import { ProductsResultCode, resultCodeName } from '@fairex/engine';
import { DAY_MS } from '@fairex/engine/calc';
import type {
  DefiBalanceReply,
  DefiBuyReply,
  DefiListReply,
  DefiExitReply,
  DefiStake,
  DefiTotalReply,
  IcoBalanceReply,
  IcoBuyReply,
  IcoListReply,
  IepnInfo,
  Language,
  MessageKey,
  MinerBalanceReply,
  MinerBuyReply,
  MinerEarningsReply,
  MinerExtractRecordReply,
  MinerExtractReply,
  MinerItem,
  MinerListReply,
  MinerOrderInfo,
} from '@fairex/shared';
import { PRODUCTS_RECORD_LIMIT, formatDecimal, tryParseDecimal } from '@fairex/shared';
import type { EngineRunner } from '../engine-runner/index.ts';
import { submitOrRefuse } from '../engine-runner/submit.ts';
import type { Refusal } from '../engine-runner/submit.ts';
import { AppError } from '../http/app-error.ts';
import type { Queryable } from '../store/index.ts';
import { PriceBook, VALUE_SCALE, valueAt } from '../wallets/prices.ts';
import {
  ViewKit,
  defiItem,
  defiStake,
  icoItem,
  minerItem,
  minerOrderInfo,
  minerRecordItem,
} from './views.ts';

export type ProductsRunner = Pick<EngineRunner<Command, EngineEvent, Engine>, 'submit' | 'engine'>;

const REFUSALS: Partial<Record<string, MessageKey>> = {
  productInvalidTerms: 'products.invalid_terms',
  productInvalidQuantity: 'products.invalid_quantity',
  productRateOutOfRange: 'products.rate_out_of_range',
  productHouseShort: 'products.house_short',
  productNotFound: 'products.not_found',
  productNotSelling: 'products.not_selling',
  productSoldOut: 'products.sold_out',
  productUserCapReached: 'products.user_cap',
  productWrongState: 'products.wrong_state',
  productDayNotDue: 'products.day_not_due',
  productRateTooLate: 'products.rate_too_late',
  productHoldingNotFound: 'products.holding_not_found',
  productExitNotAllowed: 'products.exit_not_allowed',
  productNothingToExtract: 'products.nothing_to_extract',
  productTermsLocked: 'products.terms_locked',
  productNothingDue: 'products.nothing_due',
  invalidOwner: 'auth.login_required',
  invalidAmount: 'products.nothing_to_extract',
  invalidField: 'products.invalid_terms',
};

const productCodeNames = new Map<number, string>(
  Object.entries(ProductsResultCode).map(([name, code]) => [code, name]),
);

/** The message of a refusal; `insufficientFunds` names the wallet the purchase pays from. */
export function productsRefusal(wallet?: 'ico' | 'miner' | 'defi'): Refusal {
  return (code) => {
    const name = productCodeNames.get(code) ?? resultCodeName(code);
    if (name === 'insufficientFunds' && wallet !== undefined)
      return { key: `products.insufficient_${wallet}` as MessageKey };
    return { key: REFUSALS[name] ?? 'products.refused' };
  };
}

type BuyReply = {
  holdingId: number;
  units: bigint;
  paid: bigint;
  fee: bigint;
  principal: bigint;
  daily: bigint;
  startDay: number;
  endDay: number;
};

function timeText(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

export class ProductsService {
  readonly runner: ProductsRunner;
  readonly db: Queryable;
  readonly now: () => number;

  constructor(runner: ProductsRunner, db: Queryable, now: () => number = Date.now) {
    this.runner = runner;
    this.db = db;
    this.now = now;
  }

  get engine(): Engine {
    return this.runner.engine;
  }

  kit(lang: Language): ViewKit {
    return new ViewKit(this.engine, lang, this.now());
  }

  private productsOf(kind: 'ico' | 'miner' | 'defi'): ProductView[] {
    return this.engine.products
      .products()
      .filter((product) => product.kind === kind && product.status !== 'draft');
  }

  private product(id: number, kind: 'ico' | 'miner' | 'defi'): ProductView {
    const product = this.engine.products.product(id);
    if (product === undefined || product.kind !== kind || product.status === 'draft')
      throw new AppError('products.not_found');
    return product;
  }

  /** The user's running holding of a kind; a holding of another user is "not found", like a missing one. */
  private holding(
    userId: number,
    holdingId: number,
    kind: 'miner' | 'defi',
  ): { holding: HoldingView; product: ProductView } {
    const holding = this.engine.products.holding(holdingId);
    if (holding === undefined || holding.userId !== userId || holding.kind !== kind)
      throw new AppError('products.holding_not_found');
    return { holding, product: this.engine.products.product(holding.productId) as ProductView };
  }

  private wallet(userId: number, wallet: 'ico' | 'miner' | 'defi', currencyId: number) {
    const currency = this.engine.ledger.currency(currencyId);
    if (currency === undefined) throw new AppError('products.not_found');
    const balance = this.engine.ledger.balance(userId, wallet, currencyId);
    return {
      currency: currencyId,
      currency_name: currency.code,
      available: formatDecimal(balance.available, currency.scale),
      locked: formatDecimal(balance.locked, currency.scale),
    };
  }

  /** The pay currency of the first product of a kind (USDT in the demo), for balance calls without a currency. */
  private defaultPayCurrency(kind: 'ico' | 'miner'): number {
    const product = this.productsOf(kind)[0];
    if (product !== undefined) return product.terms.payCurrencyId;
    const usdt = this.engine.ledger.currencies().find((currency) => currency.code === 'USDT');
    if (usdt === undefined) throw new AppError('products.not_found');
    return usdt.currencyId;
  }

  // -------------------------------------------------------------------------------------------------------
  // ICO

  iepn(): IepnInfo {
    const kit = this.kit('en');
    const sale = this.productsOf('ico')
      .filter((product) => kit.code(product.terms.currencyId) === 'IEPN')
      .at(-1);
    if (sale === undefined) throw new AppError('products.not_found');
    const item = icoItem(kit, sale, null);
    return {
      id: sale.productId,
      symbol: item.ico_symbol,
      total: item.ico_number,
      start: sale.terms.startMs,
      end: sale.terms.endMs,
      price: item.ico_price,
      yfx: item.sold,
      sy: item.remaining,
      pay_currency_name: item.ico_currency,
      market_symbol: item.market_symbol,
      status: sale.status,
    };
  }

  icoBalance(userId: number, currency: number | undefined): IcoBalanceReply {
    const w = this.wallet(userId, 'ico', currency ?? this.defaultPayCurrency('ico'));
    return {
      balance: {
        currency: w.currency,
        currency_name: w.currency_name,
        ico_balance: w.available,
        lock_ico_balance: w.locked,
      },
    };
  }

  icoList(userId: number | null, status: -1 | 1 | 2, lang: Language): IcoListReply {
    if (status === 1 && userId === null) throw new AppError('auth.login_required', {}, '999');
    const kit = this.kit(lang);
    const products = this.productsOf('ico').filter((product) => {
      if (status === 1) return this.engine.products.bought(product.productId, userId as number).units > 0n;
      if (status === 2) return kit.ended(product);
      return !kit.ended(product);
    });
    return { data: products.map((product) => icoItem(kit, product, userId)) };
  }

  async icoBuy(userId: number, id: number, number: number, lang: Language): Promise<IcoBuyReply> {
    const product = this.product(id, 'ico');
    const { reply } = await submitOrRefuse<BuyReply>(
      this.runner,
      { type: 'buyIco', userId, productId: id, quantity: number },
      { refusal: productsRefusal('ico') },
    );
    const kit = this.kit(lang);
    return {
      message: kit.t('products.ico_bought', { number, symbol: kit.code(product.terms.currencyId) }),
      holding_id: reply.holdingId,
      number: reply.units.toString(),
      amount: kit.amount(reply.paid, product.terms.payCurrencyId),
    };
  }

  // -------------------------------------------------------------------------------------------------------
  // Miner

  minerBalance(userId: number, currency: number | undefined): MinerBalanceReply {
    const w = this.wallet(userId, 'miner', currency ?? this.defaultPayCurrency('miner'));
    return {
      balance: {
        currency: w.currency,
        currency_name: w.currency_name,
        miner_balance: w.available,
        lock_miner_balance: w.locked,
      },
    };
  }

  minerList(userId: number | null, status: -1 | 1 | 2, lang: Language): MinerListReply {
    if (status !== -1 && userId === null) throw new AppError('auth.login_required', {}, '999');
    if (status === 1) return this.minerRecord(userId as number, 1, lang);
    const kit = this.kit(lang);
    const products = this.productsOf('miner').filter((product) =>
      status === 2 ? kit.ended(product) : !kit.ended(product),
    );
    return { data: products.map((product) => minerItem(kit, product, userId)) };
  }

  minerRecord(userId: number, status: -1 | 1 | 2, lang: Language): MinerListReply {
    const kit = this.kit(lang);
    const data: MinerItem[] = [];
    for (const holding of this.engine.products.holdingsOf(userId)) {
      if (holding.kind !== 'miner') continue;
      const finished = holding.daysAccrued >= holding.days;
      if (status === 2 ? !finished : finished && status === 1) continue;
      data.push(
        minerRecordItem(kit, this.engine.products.product(holding.productId) as ProductView, holding),
      );
    }
    return { data: data.reverse() };
  }

  async minerBuy(userId: number, id: number, number: number, lang: Language): Promise<MinerBuyReply> {
    const product = this.product(id, 'miner');
    const { reply } = await submitOrRefuse<BuyReply>(
      this.runner,
      { type: 'buyMiner', userId, productId: id, quantity: number },
      { refusal: productsRefusal('miner') },
    );
    const kit = this.kit(lang);
    const pay = product.terms.payCurrencyId;
    return {
      message: kit.t('products.miner_bought', { number }),
      holding_id: reply.holdingId,
      rent: kit.amount(reply.paid, pay),
      fee: kit.amount(reply.fee, pay),
      paid: kit.amount(reply.paid + reply.fee, pay),
    };
  }

  minerInfo(userId: number, holdingId: number, lang: Language): MinerOrderInfo {
    const { holding, product } = this.holding(userId, holdingId, 'miner');
    return minerOrderInfo(this.kit(lang), product, holding);
  }

  /** One line per accrued day of the rent, newest first: units x that day's amount per unit. */
  async minerEarnings(userId: number, holdingId: number): Promise<MinerEarningsReply> {
    const { holding, product } = this.holding(userId, holdingId, 'miner');
    const kit = this.kit('en');
    const last = holding.startDay + holding.daysAccrued - 1;
    if (holding.daysAccrued === 0) return { data: [] };
    const { rows } = await this.db.query<{ day: number; per_unit: string | null; time_ms: string }>(
      `select day, per_unit::text as per_unit, time_ms::text as time_ms from product_accruals
        where product_id = $1 and day between $2 and $3 order by day desc limit $4`,
      [product.productId, holding.startDay, last, PRODUCTS_RECORD_LIMIT],
    );
    const currency = product.terms.currencyId;
    return {
      data: rows.map((row) => {
        const perUnit = BigInt(row.per_unit ?? '0');
        return {
          id: row.day,
          currency_name: kit.code(currency),
          earnings_amount: kit.amount(holding.units * perUnit, currency),
          create_time_format: timeText(Number(row.time_ms)),
          day: row.day,
          per_unit: kit.amount(perUnit, currency),
        };
      }),
    };
  }

  async minerExtract(
    userId: number,
    holdingId: number,
    number: string,
    lang: Language,
  ): Promise<MinerExtractReply> {
    const { product } = this.holding(userId, holdingId, 'miner');
    const currency = product.terms.currencyId;
    const kit = this.kit(lang);
    const parsed = tryParseDecimal(number, kit.scale(currency), { min: 1n });
    if (!parsed.ok)
      throw new AppError(
        parsed.code === 'scale' ? 'validation.decimal_scale' : 'validation.decimal_positive',
        {
          scale: kit.scale(currency),
          field: 'number',
        },
      );
    await submitOrRefuse(
      this.runner,
      { type: 'extractMinerEarnings', userId, holdingId, amount: parsed.value },
      { refusal: productsRefusal() },
    );
    const amount = kit.amount(parsed.value, currency);
    return { message: kit.t('products.extracted', { amount, currency: kit.code(currency) }), amount };
  }

  async minerExtractRecord(userId: number, holdingId: number): Promise<MinerExtractRecordReply> {
    const { product } = this.holding(userId, holdingId, 'miner');
    const currency = product.terms.currencyId;
    const kit = this.kit('en');
    const { rows } = await this.db.query<{ seq: string; amount: string; time_ms: string }>(
      `select seq::text as seq, amount::text as amount, time_ms::text as time_ms from product_extractions
        where holding_id = $1 and user_id = $2 order by seq desc limit $3`,
      [holdingId, userId, PRODUCTS_RECORD_LIMIT],
    );
    return {
      data: rows.map((row) => ({
        id: Number(row.seq),
        extract_amount: kit.amount(BigInt(row.amount), currency),
        create_time_format: timeText(Number(row.time_ms)),
        currency_name: kit.code(currency),
      })),
    };
  }

  // -------------------------------------------------------------------------------------------------------
  // Defi

  /** The defi wallet's value and the running stakes' value (principal and earnings so far), in USDT. */
  defiTotal(userId: number): DefiTotalReply {
    const usdt = this.engine.ledger.currencies().find((currency) => currency.code === 'USDT');
    if (usdt === undefined) return { balance: null, total: null };
    const prices = new PriceBook(this.engine);
    let wallet = 0n;
    let held = 0n;
    let priced = true;
    for (const currency of this.engine.ledger.currencies()) {
      const balance = this.engine.ledger.balance(userId, 'defi', currency.currencyId);
      const amount = balance.available + balance.locked;
      if (amount === 0n) continue;
      const price = prices.priceOf(currency.currencyId, usdt.currencyId);
      if (price === undefined) priced = false;
      else wallet += valueAt(amount, currency.scale, price);
    }
    for (const holding of this.engine.products.holdingsOf(userId)) {
      if (holding.kind !== 'defi') continue;
      const product = this.engine.products.product(holding.productId) as ProductView;
      const currency = this.engine.ledger.currency(product.terms.currencyId);
      const price = prices.priceOf(product.terms.currencyId, usdt.currencyId);
      if (currency === undefined || price === undefined) {
        priced = false;
        continue;
      }
      held += valueAt(holding.principal + holding.accrued, currency.scale, price);
    }
    const text = (value: bigint) =>
      formatDecimal(value / 10n ** BigInt(VALUE_SCALE - usdt.scale), usdt.scale);
    return priced ? { balance: text(wallet), total: text(held) } : { balance: null, total: null };
  }

  defiBalance(userId: number, currency: number): DefiBalanceReply {
    const w = this.wallet(userId, 'defi', currency);
    return {
      balance: {
        defi_balance: w.available,
        lock_defi_balance: w.locked,
        currency: w.currency,
        currency_name: w.currency_name,
      },
    };
  }

  private runningStakes(kit: ViewKit, userId: number | null, product: ProductView): DefiStake[] {
    if (userId === null) return [];
    return this.engine.products
      .holdingsOf(userId)
      .filter((holding) => holding.kind === 'defi' && holding.productId === product.productId)
      .map((holding) => defiStake(kit, product, holding));
  }

  defiList(
    userId: number | null,
    status: -1 | 1 | 2,
    lang: Language,
  ): Promise<DefiListReply> | DefiListReply {
    if (status === 1) {
      if (userId === null) throw new AppError('auth.login_required', {}, '999');
      return this.defiRecord(userId, 1, lang);
    }
    const kit = this.kit(lang);
    const products = this.productsOf('defi').filter((product) =>
      status === 2 ? kit.ended(product) : !kit.ended(product),
    );
    return {
      data: products.map((product) => {
        const stakes = this.runningStakes(kit, userId, product);
        const held = stakes.reduce((sum, stake) => sum + BigInt(stake.number), 0n);
        const earnings = this.engine.products
          .holdingsOf(userId ?? 0)
          .filter((holding) => holding.productId === product.productId)
          .reduce((sum, holding) => sum + holding.accrued, 0n);
        return defiItem(kit, product, stakes, held, userId === null ? 0n : earnings);
      }),
    };
  }

  /** Tab 1: the products the user holds running stakes in; tab 2: the user's ended stakes, by product. */
  async defiRecord(userId: number, status: 1 | 2, lang: Language): Promise<DefiListReply> {
    const kit = this.kit(lang);
    if (status === 1) {
      const byProduct = new Map<number, HoldingView[]>();
      for (const holding of this.engine.products.holdingsOf(userId)) {
        if (holding.kind !== 'defi') continue;
        const list = byProduct.get(holding.productId) ?? [];
        list.push(holding);
        byProduct.set(holding.productId, list);
      }
      return {
        data: [...byProduct].map(([productId, holdings]) => {
          const product = this.engine.products.product(productId) as ProductView;
          const held = holdings.reduce((sum, holding) => sum + holding.units, 0n);
          const earnings = holdings.reduce((sum, holding) => sum + holding.accrued, 0n);
          return defiItem(
            kit,
            product,
            holdings.map((holding) => defiStake(kit, product, holding)),
            held,
            earnings,
          );
        }),
      };
    }
    const { rows } = await this.db.query<{
      holding_id: string;
      product_id: number;
      units: string;
      daily: string;
      start_day: number;
      days: number;
      created_ms: string;
      how: 'matured' | 'exited';
      principal: string;
      earnings: string;
    }>(
      `select p.holding_id::text as holding_id, p.product_id, p.units::text as units, p.daily::text as daily,
              p.start_day, p.days, p.created_ms::text as created_ms, e.how, e.principal::text as principal,
              e.earnings::text as earnings
         from product_stake_ends e join product_purchases p on p.holding_id = e.holding_id
        where e.user_id = $1 order by e.holding_id desc limit 200`,
      [userId],
    );
    const byProduct = new Map<number, DefiStake[]>();
    for (const row of rows) {
      const product = this.engine.products.product(row.product_id);
      if (product === undefined) continue;
      const currency = product.terms.currencyId;
      const stake: DefiStake = {
        id: Number(row.holding_id),
        number: row.units,
        earnings: kit.amount(BigInt(row.earnings), currency),
        daily: kit.amount(BigInt(row.daily), currency),
        apr_bp: product.terms.aprBp,
        defi_day: row.days,
        days_accrued: row.how === 'matured' ? row.days : 0,
        start_time: row.start_day * DAY_MS,
        end_time: (row.start_day + row.days) * DAY_MS,
        create_time: Number(row.created_ms),
        early_exit: product.terms.earlyExit ?? 'none',
        state: row.how,
        returned: kit.amount(BigInt(row.principal) + BigInt(row.earnings), currency),
      };
      const list = byProduct.get(row.product_id) ?? [];
      list.push(stake);
      byProduct.set(row.product_id, list);
    }
    return {
      data: [...byProduct].map(([productId, stakes]) => {
        const product = this.engine.products.product(productId) as ProductView;
        const paid = rows
          .filter((row) => row.product_id === productId)
          .reduce((sum, row) => sum + BigInt(row.earnings), 0n);
        return defiItem(kit, product, stakes, 0n, paid);
      }),
    };
  }

  async defiBuy(userId: number, id: number, number: number, lang: Language): Promise<DefiBuyReply> {
    const product = this.product(id, 'defi');
    const { reply } = await submitOrRefuse<BuyReply>(
      this.runner,
      { type: 'stakeDefi', userId, productId: id, quantity: number },
      { refusal: productsRefusal('defi') },
    );
    const kit = this.kit(lang);
    const currency = product.terms.currencyId;
    return {
      message: kit.t('products.staked', { number, currency: kit.code(currency) }),
      holding_id: reply.holdingId,
      number: reply.units.toString(),
      end_time: (reply.endDay + 1) * DAY_MS,
      daily: kit.amount(reply.daily, currency),
    };
  }

  async defiExit(userId: number, holdingId: number, lang: Language): Promise<DefiExitReply> {
    const { product } = this.holding(userId, holdingId, 'defi');
    const { reply } = await submitOrRefuse<{ returned: bigint; forfeited: bigint }>(
      this.runner,
      { type: 'exitDefiStake', userId, holdingId },
      { refusal: productsRefusal() },
    );
    const kit = this.kit(lang);
    const currency = product.terms.currencyId;
    const returned = kit.amount(reply.returned, currency);
    return {
      message: kit.t('products.exited', { amount: returned, currency: kit.code(currency) }),
      returned,
      forfeited: kit.amount(reply.forfeited, currency),
    };
  }
}
