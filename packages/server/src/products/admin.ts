// The back office of the products (docs/products.md, "Back office"): create, edit (future terms only),
// open and close products; record a recorded-rate miner's daily amounts; read the house accounts that fund
// them, each product's holdings and its accruals. Changes are engine commands, audited once accepted.
import type { Engine, ProductKind, ProductTerms, ProductView } from '@fairex/engine';
import { resultCodeName } from '@fairex/engine';
import type {
  AdminAccrualLine,
  AdminHoldingLine,
  AdminMinerRateLine,
  AdminPage,
  AdminProductLine,
  AdminProductsReply,
} from '@fairex/shared';
import { PRODUCTS_ADMIN_PAGE, tryParseDecimal } from '@fairex/shared';
import type { adminProductCreateInput, adminProductEditInput } from '@fairex/shared';
import type { z } from 'zod';
import type { Actor } from '../admin/audit-changes.ts';
import { recordChange } from '../admin/audit-changes.ts';
import { submitOrRefuse } from '../engine-runner/submit.ts';
import { AppError } from '../http/app-error.ts';
import type { Queryable } from '../store/index.ts';
import type { AccrualRun } from './accrual-job.ts';
import { productsRefusal } from './service.ts';
import type { ProductsRunner } from './service.ts';
import { ViewKit } from './views.ts';

export type ProductCreateInput = z.output<typeof adminProductCreateInput>;
export type ProductEditInput = z.output<typeof adminProductEditInput>;

function amountOf(engine: Engine, text: string, currencyId: number, field: string): bigint {
  const currency = engine.ledger.currency(currencyId);
  if (currency === undefined) throw new AppError('products.invalid_terms');
  const parsed = tryParseDecimal(text, currency.scale, { min: 0n });
  if (!parsed.ok) throw new AppError('validation.decimal_scale', { scale: currency.scale, field });
  return parsed.value;
}

/** The engine's terms and texts from the back office's form. */
export function termsOf(
  engine: Engine,
  input: ProductCreateInput,
): { kind: ProductKind; terms: ProductTerms } {
  const base = {
    startMs: input.start_time,
    endMs: input.end_time,
    totalUnits: BigInt(input.total),
    perUserCap: input.per_user_cap === undefined ? null : BigInt(input.per_user_cap),
    unitPrice: 0n,
    feeBp: 0,
    days: 0,
    rateKind: null,
    rateMin: 0n,
    rateMax: 0n,
    aprBp: 0,
    earlyExit: null,
  };
  switch (input.kind) {
    case 'ico':
      return {
        kind: 'ico',
        terms: {
          ...base,
          currencyId: input.token_currency_id,
          payCurrencyId: input.pay_currency_id,
          unitPrice: amountOf(engine, input.price, input.pay_currency_id, 'price'),
        },
      };
    case 'miner':
      return {
        kind: 'miner',
        terms: {
          ...base,
          currencyId: input.earn_currency_id,
          payCurrencyId: input.pay_currency_id,
          unitPrice: amountOf(engine, input.price, input.pay_currency_id, 'price'),
          feeBp: input.fee_bp,
          days: input.days,
          rateKind: input.rate_kind,
          rateMin: amountOf(engine, input.earnings_min, input.earn_currency_id, 'earnings_min'),
          rateMax: amountOf(engine, input.earnings_max, input.earn_currency_id, 'earnings_max'),
        },
      };
    case 'defi':
      return {
        kind: 'defi',
        terms: {
          ...base,
          currencyId: input.currency_id,
          payCurrencyId: input.currency_id,
          days: input.days,
          aprBp: input.apr_bp,
          earlyExit: input.early_exit,
        },
      };
  }
}

function detailsOf(input: ProductCreateInput) {
  return {
    title: input.title,
    logo: input.logo ?? '',
    white: input.white ?? '',
    image: input.image ?? '',
    label: input.label ?? '',
    description: input.description ?? '',
  };
}

export function productLine(engine: Engine, product: ProductView): AdminProductLine {
  const kit = new ViewKit(engine, 'en', Date.now());
  const { terms } = product;
  const currency = terms.currencyId;
  const house = engine.ledger.balance('house', kit.house(product).wallet, currency);
  const isMiner = product.kind === 'miner';
  return {
    id: product.productId,
    kind: product.kind,
    status: product.status,
    title: product.details.title,
    logo: product.details.logo,
    white: product.details.white,
    image: product.details.image,
    label: product.details.label,
    description: product.details.description,
    start_time: terms.startMs,
    end_time: terms.endMs,
    created_time: product.createdMs,
    currency_id: currency,
    currency_name: kit.code(currency),
    pay_currency_id: product.kind === 'defi' ? null : terms.payCurrencyId,
    pay_currency_name: product.kind === 'defi' ? null : kit.code(terms.payCurrencyId),
    total: terms.totalUnits.toString(),
    sold: product.sold.toString(),
    remaining: product.remaining.toString(),
    price: product.kind === 'defi' ? null : kit.amount(terms.unitPrice, terms.payCurrencyId),
    fee_bp: isMiner ? terms.feeBp : null,
    days: product.kind === 'ico' ? null : terms.days,
    rate_kind: isMiner ? terms.rateKind : null,
    earnings_min: isMiner ? kit.amount(terms.rateMin, currency) : null,
    earnings_max: isMiner ? kit.amount(terms.rateMax, currency) : null,
    apr_bp: product.kind === 'defi' ? terms.aprBp : null,
    early_exit: product.kind === 'defi' ? terms.earlyExit : null,
    per_user_cap: terms.perUserCap === null ? null : terms.perUserCap.toString(),
    accrued_through: product.kind === 'ico' ? null : product.nextAccrualDay - 1,
    holdings: product.unfinished,
    house: kit.house(product),
    reserve_required: kit.amount(product.requiredReserve, currency),
    house_available: kit.amount(house.available, currency),
  };
}

function page<T>(data: T[], current: number, total: number): AdminPage<T> {
  return {
    data,
    current_page: current,
    last_page: Math.max(1, Math.ceil(total / PRODUCTS_ADMIN_PAGE)),
    per_page: PRODUCTS_ADMIN_PAGE,
    total,
  };
}

export class ProductsAdmin {
  readonly runner: ProductsRunner;
  readonly db: Queryable;
  readonly accrueNow: () => Promise<AccrualRun>;

  constructor(runner: ProductsRunner, db: Queryable, accrueNow: () => Promise<AccrualRun>) {
    this.runner = runner;
    this.db = db;
    this.accrueNow = accrueNow;
  }

  get engine(): Engine {
    return this.runner.engine;
  }

  private product(id: number): ProductView {
    const product = this.engine.products.product(id);
    if (product === undefined) throw new AppError('products.not_found');
    return product;
  }

  list(): AdminProductsReply {
    return {
      products: this.engine.products.products().map((product) => productLine(this.engine, product)),
      currencies: this.engine.ledger
        .currencies()
        .map((currency) => ({ id: currency.currencyId, code: currency.code, scale: currency.scale })),
    };
  }

  async create(actor: Actor, input: ProductCreateInput): Promise<AdminProductLine> {
    const { kind, terms } = termsOf(this.engine, input);
    const { reply } = await submitOrRefuse<{ productId: number }>(
      this.runner,
      { type: 'createProduct', kind, terms, details: detailsOf(input) },
      { refusal: productsRefusal() },
    );
    const line = productLine(this.engine, this.product(reply.productId));
    await recordChange(this.db, actor, {
      action: 'products.create',
      targetType: 'product',
      targetId: String(reply.productId),
      after: line as unknown as Record<string, unknown>,
    });
    return line;
  }

  async edit(actor: Actor, input: ProductEditInput): Promise<AdminProductLine> {
    const before = productLine(this.engine, this.product(input.id));
    if (before.kind !== input.kind) throw new AppError('products.invalid_terms');
    const { terms } = termsOf(this.engine, input);
    await submitOrRefuse(
      this.runner,
      { type: 'editProduct', productId: input.id, terms, details: detailsOf(input) },
      { refusal: productsRefusal() },
    );
    const after = productLine(this.engine, this.product(input.id));
    await recordChange(this.db, actor, {
      action: 'products.edit',
      targetType: 'product',
      targetId: String(input.id),
      before: before as unknown as Record<string, unknown>,
      after: after as unknown as Record<string, unknown>,
    });
    return after;
  }

  async setOpen(actor: Actor, id: number, open: boolean): Promise<AdminProductLine> {
    this.product(id);
    await submitOrRefuse(
      this.runner,
      open ? { type: 'openProduct', productId: id } : { type: 'closeProduct', productId: id },
      { refusal: productsRefusal() },
    );
    const line = productLine(this.engine, this.product(id));
    await recordChange(this.db, actor, {
      action: open ? 'products.open' : 'products.close',
      targetType: 'product',
      targetId: String(id),
      after: { status: line.status, reserved: line.house.reserved },
    });
    return line;
  }

  async recordRate(actor: Actor, id: number, day: number, amount: string): Promise<void> {
    const product = this.product(id);
    const perUnit = amountOf(this.engine, amount, product.terms.currencyId, 'amount');
    await submitOrRefuse(
      this.runner,
      { type: 'recordMinerRate', productId: id, day, perUnit },
      { refusal: productsRefusal() },
    );
    await recordChange(this.db, actor, {
      action: 'products.miner_rate',
      targetType: 'product',
      targetId: String(id),
      after: { day, amount },
    });
  }

  /** From the house's change wallet to the product's house account (a journaled system transfer). */
  async fund(
    actor: Actor,
    id: number,
    amountText: string,
    note: string | undefined,
  ): Promise<AdminProductLine> {
    const product = this.product(id);
    const before = productLine(this.engine, product);
    const amount = amountOf(this.engine, amountText, product.terms.currencyId, 'amount');
    if (amount === 0n) throw new AppError('validation.decimal_positive', { field: 'amount' });
    await submitOrRefuse(
      this.runner,
      {
        type: 'systemTransfer',
        owner: 'house',
        currencyId: product.terms.currencyId,
        fromWallet: 'change',
        toWallet: before.house.wallet,
        amount,
        memo: `product ${id} funding (administrator ${actor.adminId})${note === undefined ? '' : `: ${note}`}`,
      },
      {
        refusal: (code) =>
          resultCodeName(code) === 'insufficientFunds'
            ? { key: 'products.house_change_short' }
            : productsRefusal()(code),
      },
    );
    const after = productLine(this.engine, this.product(id));
    await recordChange(this.db, actor, {
      action: 'products.fund',
      targetType: 'product',
      targetId: String(id),
      before: { house_available: before.house_available },
      after: { house_available: after.house_available },
      detail: { amount: amountText },
    });
    return after;
  }

  /** Each day of a recorded-rate miner: recorded amounts (the last recording of a day) and accruals. */
  async rates(id: number, current: number): Promise<AdminPage<AdminMinerRateLine>> {
    const product = this.product(id);
    if (product.kind !== 'miner') throw new AppError('products.not_found');
    const currency = product.terms.currencyId;
    const kit = new ViewKit(this.engine, 'en', Date.now());
    const { rows } = await this.db.query<{
      day: number;
      per_unit: string | null;
      recorded_ms: string | null;
      accrued_unit: string | null;
      accrued: boolean;
      total: string;
    }>(
      `with recorded as (
         select distinct on (day) day, per_unit, time_ms from product_rates where product_id = $1 order by day, seq desc
       ), days as (
         select day from recorded union select day from product_accruals where product_id = $1
       )
       select d.day, r.per_unit::text as per_unit, r.time_ms::text as recorded_ms, a.per_unit::text as accrued_unit,
              a.day is not null as accrued, count(*) over ()::text as total
         from days d left join recorded r on r.day = d.day
         left join product_accruals a on a.product_id = $1 and a.day = d.day
        order by d.day desc limit $2 offset $3`,
      [id, PRODUCTS_ADMIN_PAGE, (current - 1) * PRODUCTS_ADMIN_PAGE],
    );
    const data = rows.map((row) => {
      const amount = BigInt(row.accrued_unit ?? row.per_unit ?? product.terms.rateMin.toString());
      return {
        day: row.day,
        amount: kit.amount(amount, currency),
        recorded: row.per_unit !== null,
        recorded_time: row.recorded_ms === null ? null : Number(row.recorded_ms),
        accrued: row.accrued,
      };
    });
    return page(data, current, Number(rows[0]?.total ?? 0));
  }

  async holdings(id: number, current: number): Promise<AdminPage<AdminHoldingLine>> {
    const product = this.product(id);
    const kit = new ViewKit(this.engine, 'en', Date.now());
    const { rows } = await this.db.query<{
      holding_id: string;
      user_id: number;
      units: string;
      paid: string;
      fee: string;
      principal: string;
      start_day: number;
      days: number;
      created_ms: string;
      how: 'matured' | 'exited' | null;
      earnings: string | null;
      extracted: string | null;
      total: string;
    }>(
      `select p.holding_id::text as holding_id, p.user_id, p.units::text as units, p.paid::text as paid,
              p.fee::text as fee, p.principal::text as principal, p.start_day, p.days, p.created_ms::text as created_ms,
              e.how, e.earnings::text as earnings,
              (select sum(x.amount) from product_extractions x where x.holding_id = p.holding_id)::text as extracted,
              count(*) over ()::text as total
         from product_purchases p left join product_stake_ends e on e.holding_id = p.holding_id
        where p.product_id = $1 order by p.holding_id desc limit $2 offset $3`,
      [id, PRODUCTS_ADMIN_PAGE, (current - 1) * PRODUCTS_ADMIN_PAGE],
    );
    const currency = product.terms.currencyId;
    const pay = product.terms.payCurrencyId;
    const data = rows.map((row): AdminHoldingLine => {
      const live = this.engine.products.holding(Number(row.holding_id));
      const accrued = live?.accrued ?? BigInt(row.earnings ?? '0');
      const state: AdminHoldingLine['state'] =
        row.how ??
        (product.kind === 'ico'
          ? 'ended'
          : live !== undefined && live.daysAccrued < live.days
            ? 'running'
            : 'ended');
      return {
        id: Number(row.holding_id),
        user_id: row.user_id,
        number: row.units,
        paid: kit.amount(BigInt(product.kind === 'defi' ? row.principal : row.paid), pay),
        fee: kit.amount(BigInt(row.fee), pay),
        accrued: product.kind === 'ico' ? '0' : kit.amount(accrued, currency),
        paid_out: kit.amount(
          product.kind === 'miner'
            ? BigInt(row.extracted ?? '0')
            : row.how === 'matured'
              ? BigInt(row.earnings ?? '0')
              : 0n,
          currency,
        ),
        days: row.days,
        days_accrued: live?.daysAccrued ?? (row.how === 'matured' ? row.days : 0),
        start_day: row.start_day,
        state,
        created_time: Number(row.created_ms),
      };
    });
    return page(data, current, Number(rows[0]?.total ?? 0));
  }

  async accruals(id: number, current: number): Promise<AdminPage<AdminAccrualLine>> {
    const product = this.product(id);
    const kit = new ViewKit(this.engine, 'en', Date.now());
    const currency = product.terms.currencyId;
    const { rows } = await this.db.query<{
      day: number;
      holdings: number;
      earnings: string;
      per_unit: string | null;
      released: string;
      time_ms: string;
      seq: string;
      total: string;
    }>(
      `select day, holdings, earnings::text as earnings, per_unit::text as per_unit, released::text as released,
              time_ms::text as time_ms, seq::text as seq, count(*) over ()::text as total
         from product_accruals where product_id = $1 order by day desc limit $2 offset $3`,
      [id, PRODUCTS_ADMIN_PAGE, (current - 1) * PRODUCTS_ADMIN_PAGE],
    );
    const data = rows.map((row) => ({
      day: row.day,
      holdings: row.holdings,
      amount: kit.amount(BigInt(row.earnings), currency),
      per_unit: row.per_unit === null ? null : kit.amount(BigInt(row.per_unit), currency),
      released: kit.amount(BigInt(row.released), currency),
      time: Number(row.time_ms),
      seq: Number(row.seq),
    }));
    return page(data, current, Number(rows[0]?.total ?? 0));
  }
}
