// Reply shapes of the product calls (shared/api/products.ts), made from the engine's product and holding
// views: amounts in minor units become decimal text at the currency's scale, rates in basis points become
// percent text, and the rules are written out in the request's language.
import type { Engine, HoldingView, ProductView } from '@fairex/engine';
import { DAY_MS, dayOf, progressHundredths } from '@fairex/engine/calc';
import type {
  DefiItem,
  DefiStake,
  HouseAccountView,
  IcoItem,
  Language,
  MessageKey,
  MessageParams,
  MinerItem,
  MinerOrderInfo,
  ProductStatus,
} from '@fairex/shared';
import { formatDecimal, groupThousands, translate } from '@fairex/shared';

export type ProductsEngine = Pick<Engine, 'ledger' | 'spot' | 'products'>;

export const WALLET_OF_KIND = { ico: 'ico', miner: 'miner', defi: 'defi' } as const;

export class ViewKit {
  readonly engine: ProductsEngine;
  readonly lang: Language;
  readonly nowMs: number;

  constructor(engine: ProductsEngine, lang: Language, nowMs: number) {
    this.engine = engine;
    this.lang = lang;
    this.nowMs = nowMs;
  }

  t(key: MessageKey, params?: MessageParams): string {
    return translate(this.lang, key, params);
  }

  code(currencyId: number): string {
    return this.engine.ledger.currency(currencyId)?.code ?? '';
  }

  scale(currencyId: number): number {
    return this.engine.ledger.currency(currencyId)?.scale ?? 0;
  }

  amount(minor: bigint, currencyId: number): string {
    return formatDecimal(minor, this.scale(currencyId));
  }

  /** The spot pair of a token and its pay currency ('IEPN/USDT'), when one is listed. */
  marketSymbol(baseId: number, quoteId: number): string | null {
    const market = this.engine.spot
      .markets()
      .find((candidate) => candidate.baseCurrencyId === baseId && candidate.quoteCurrencyId === quoteId);
    return market === undefined ? null : `${this.code(baseId)}/${this.code(quoteId)}`;
  }

  house(product: ProductView): HouseAccountView {
    return {
      owner: 'house',
      wallet: WALLET_OF_KIND[product.kind],
      currency_id: product.terms.currencyId,
      currency_name: this.code(product.terms.currencyId),
      reserved: this.amount(product.reserve, product.terms.currencyId),
      accrued_unpaid: this.amount(product.earned, product.terms.currencyId),
    };
  }

  /** Selling now: open, and inside its sale window. */
  selling(product: ProductView): boolean {
    return (
      product.status === 'open' && this.nowMs >= product.terms.startMs && this.nowMs < product.terms.endMs
    );
  }

  /** Ended: closed, or past its sale window. */
  ended(product: ProductView): boolean {
    return product.status === 'closed' || (product.status === 'open' && this.nowMs >= product.terms.endMs);
  }
}

/** Basis points as percent text: 1234 -> "12.34", 100 -> "1". */
export function percentText(bp: number): string {
  const text = formatDecimal(BigInt(bp), 2);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

function progress(part: bigint, whole: bigint): string {
  return formatDecimal(progressHundredths({ part, whole }), 2);
}

function daysLeft(nowMs: number, endMs: number): number {
  return endMs <= nowMs ? 0 : Math.ceil((endMs - nowMs) / DAY_MS);
}

export function statusOf(product: ProductView): ProductStatus {
  return product.status;
}

// ---------------------------------------------------------------------------------------------------------
// ICO

export function icoRule(kit: ViewKit, product: ProductView): string {
  const { terms } = product;
  const cap =
    terms.perUserCap === null
      ? ''
      : kit.t('products.rule_cap', { cap: groupThousands(terms.perUserCap.toString()) });
  return kit.t('products.rule_ico', {
    price: kit.amount(terms.unitPrice, terms.payCurrencyId),
    currency: kit.code(terms.payCurrencyId),
    total: groupThousands(terms.totalUnits.toString()),
    cap,
    symbol: kit.code(terms.currencyId),
  });
}

export function icoItem(kit: ViewKit, product: ProductView, userId: number | null): IcoItem {
  const { terms } = product;
  const bought =
    userId === null ? { units: 0n, paid: 0n } : kit.engine.products.bought(product.productId, userId);
  const value = bought.units * terms.unitPrice;
  // Sold and remaining are the ledger's: what the house still holds for the sale is the remaining tokens.
  const remainingTokens = product.status === 'open' ? product.reserve / product.unitMinor : product.remaining;
  const sold = product.sold;
  return {
    id: product.productId,
    ico_symbol: kit.code(terms.currencyId),
    ico_logo: product.details.logo,
    ico_white: product.details.white,
    ico_has: sold.toString(),
    ico_number: terms.totalUnits.toString(),
    ico_price: kit.amount(terms.unitPrice, terms.payCurrencyId),
    ico_load: progress(sold, terms.totalUnits),
    end_day: daysLeft(kit.nowMs, terms.endMs),
    end_time: terms.endMs,
    hold_number: bought.units.toString(),
    hold_new_amount: kit.amount(value, terms.payCurrencyId),
    hold_amount: kit.amount(bought.paid, terms.payCurrencyId),
    hold_earnings: kit.amount(value - bought.paid, terms.payCurrencyId),
    ico_currency: kit.code(terms.payCurrencyId),
    token_currency_id: terms.currencyId,
    pay_currency_id: terms.payCurrencyId,
    sold: sold.toString(),
    remaining: remainingTokens.toString(),
    start_time: terms.startMs,
    per_user_cap: terms.perUserCap === null ? null : terms.perUserCap.toString(),
    status: product.status,
    market_symbol: kit.marketSymbol(terms.currencyId, terms.payCurrencyId),
    house: kit.house(product),
    rule_text: icoRule(kit, product),
    risk_text: kit.t('products.risk_ico'),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Miner

export function minerRule(kit: ViewKit, product: ProductView): string {
  const { terms } = product;
  const common = {
    price: kit.amount(terms.unitPrice, terms.payCurrencyId),
    pay: kit.code(terms.payCurrencyId),
    fee: percentText(terms.feeBp),
    days: terms.days,
    currency: kit.code(terms.currencyId),
  };
  return terms.rateKind === 'recorded'
    ? kit.t('products.rule_miner_recorded', {
        ...common,
        min: kit.amount(terms.rateMin, terms.currencyId),
        max: kit.amount(terms.rateMax, terms.currencyId),
      })
    : kit.t('products.rule_miner_fixed', { ...common, amount: kit.amount(terms.rateMin, terms.currencyId) });
}

/** The amount per unit of `day`: fixed, the recorded one, or the minimum for want of a recording. */
export function perUnitOf(product: ProductView, day: number): bigint {
  if (product.terms.rateKind !== 'recorded') return product.terms.rateMin;
  const recorded = product.rates.find(([candidate]) => candidate === day);
  return recorded === undefined ? product.terms.rateMin : recorded[1];
}

function minerBase(kit: ViewKit, product: ProductView) {
  const { terms } = product;
  const today = perUnitOf(product, dayOf(kit.nowMs));
  const currency = kit.code(terms.currencyId);
  return {
    currency_name: currency,
    currency_logo: product.details.logo,
    miner_white: product.details.white,
    miner_image: product.details.image,
    miner_hashrate: product.details.label,
    miner_price: kit.amount(terms.unitPrice, terms.payCurrencyId),
    miner_fee: percentText(terms.feeBp),
    miner_earnings: kit.amount(today, terms.currencyId),
    miner_earnings_show: kit.t('products.earnings_show', {
      amount: kit.amount(today, terms.currencyId),
      currency,
    }),
    miner_earnings_range: `${kit.amount(terms.rateMin, terms.currencyId)} - ${kit.amount(terms.rateMax, terms.currencyId)}`,
    miner_day: terms.days,
    product_id: product.productId,
    pay_currency_name: kit.code(terms.payCurrencyId),
    earn_currency_id: terms.currencyId,
    rate_kind: terms.rateKind ?? 'fixed',
    earnings_min: kit.amount(terms.rateMin, terms.currencyId),
    earnings_max: kit.amount(terms.rateMax, terms.currencyId),
    sold: product.sold.toString(),
    remaining: product.remaining.toString(),
    status: product.status,
    house: kit.house(product),
    rule_text: minerRule(kit, product),
    risk_text: kit.t('products.risk_miner', { currency }),
  };
}

export function minerItem(kit: ViewKit, product: ProductView, userId: number | null): MinerItem {
  let extractable = 0n;
  let extracted = 0n;
  if (userId !== null)
    for (const holding of kit.engine.products.holdingsOf(userId))
      if (holding.productId === product.productId) {
        extractable += holding.accrued - holding.extracted;
        extracted += holding.extracted;
      }
  const status = kit.selling(product)
    ? 'products.status_selling'
    : kit.ended(product)
      ? 'products.status_ended'
      : 'products.status_not_started';
  return {
    id: product.productId,
    ...minerBase(kit, product),
    miner_number: product.terms.totalUnits.toString(),
    miner_status_lang: kit.t(status),
    end_time: product.terms.endMs,
    end_load: progress(product.sold, product.terms.totalUnits),
    earnings_total: kit.amount(extractable, product.terms.currencyId),
    earnings_extract: kit.amount(extracted, product.terms.currencyId),
  };
}

/** The end of a holding's last day (ms). */
export function holdingEndMs(holding: HoldingView): number {
  return (holding.startDay + holding.days) * DAY_MS;
}

export function minerRecordItem(kit: ViewKit, product: ProductView, holding: HoldingView): MinerItem {
  const finished = holding.daysAccrued >= holding.days;
  return {
    id: holding.holdingId,
    ...minerBase(kit, product),
    miner_number: holding.units.toString(),
    miner_status_lang: kit.t(finished ? 'products.status_finished' : 'products.status_running'),
    end_time: holdingEndMs(holding),
    end_load: progress(BigInt(holding.daysAccrued), BigInt(holding.days)),
    earnings_total: kit.amount(holding.accrued - holding.extracted, product.terms.currencyId),
    earnings_extract: kit.amount(holding.extracted, product.terms.currencyId),
  };
}

function totalHashrate(label: string, units: bigint): string {
  const match = /^(\d+(?:\.\d+)?)(.*)$/.exec(label.trim());
  if (match === null) return label;
  const [, number = '0', rest = ''] = match;
  const [whole = '0', fraction = ''] = number.split('.');
  const scale = fraction.length;
  const total = BigInt(whole + fraction) * units;
  return `${formatDecimal(total, scale)}${rest}`;
}

export function minerOrderInfo(kit: ViewKit, product: ProductView, holding: HoldingView): MinerOrderInfo {
  const { terms } = product;
  const base = minerBase(kit, product);
  const today = perUnitOf(product, dayOf(kit.nowMs));
  const finished = holding.daysAccrued >= holding.days;
  return {
    miner_earnings_show: base.miner_earnings_show,
    miner_hashrate: base.miner_hashrate,
    miner_price: base.miner_price,
    miner_number: holding.units.toString(),
    miner_fee: base.miner_fee,
    miner_earnings: base.miner_earnings,
    miner_earnings_range: base.miner_earnings_range,
    earnings_total: kit.amount(holding.accrued - holding.extracted, terms.currencyId),
    earnings_extract: kit.amount(holding.extracted, terms.currencyId),
    end_day: holding.days - holding.daysAccrued,
    currency_name: base.currency_name,
    id: holding.holdingId,
    product_id: product.productId,
    pay_currency_name: base.pay_currency_name,
    rent: kit.amount(holding.paid, terms.payCurrencyId),
    fee_amount: kit.amount(holding.fee, terms.payCurrencyId),
    expected_daily: kit.amount(
      finished ? 0n : holding.units * (holding.recorded ? today : holding.daily / holding.units),
      terms.currencyId,
    ),
    total_income: kit.amount(holding.accrued, terms.currencyId),
    total_hashrate: totalHashrate(product.details.label, holding.units),
    days_accrued: holding.daysAccrued,
    start_time: holding.startDay * DAY_MS,
    end_time: holdingEndMs(holding),
    create_time: holding.createdMs,
    rate_kind: terms.rateKind ?? 'fixed',
    rule_text: base.rule_text,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Defi

export function defiRule(kit: ViewKit, product: ProductView): string {
  const { terms } = product;
  return kit.t('products.rule_defi', {
    currency: kit.code(terms.currencyId),
    days: terms.days,
    apr: percentText(terms.aprBp),
    exit: kit.t(terms.earlyExit === 'forfeit' ? 'products.exit_forfeit' : 'products.exit_none'),
  });
}

export function defiStake(kit: ViewKit, product: ProductView, holding: HoldingView): DefiStake {
  const currency = product.terms.currencyId;
  return {
    id: holding.holdingId,
    number: holding.units.toString(),
    earnings: kit.amount(holding.accrued, currency),
    daily: kit.amount(holding.daily, currency),
    apr_bp: product.terms.aprBp,
    defi_day: holding.days,
    days_accrued: holding.daysAccrued,
    start_time: holding.startDay * DAY_MS,
    end_time: holdingEndMs(holding),
    create_time: holding.createdMs,
    early_exit: holding.earlyExit ?? 'none',
    state: 'running',
    returned: null,
  };
}

export function defiItem(
  kit: ViewKit,
  product: ProductView,
  stakes: DefiStake[],
  heldUnits: bigint,
  earnings: bigint,
): DefiItem {
  const { terms } = product;
  const currency = terms.currencyId;
  const running = stakes.filter((stake) => stake.state === 'running');
  const nextEnd = running.length === 0 ? terms.endMs : Math.min(...running.map((stake) => stake.end_time));
  return {
    id: product.productId,
    currency_name: kit.code(currency),
    currency_logo: product.details.logo,
    defi_white: product.details.white,
    defi_day: terms.days,
    defi_earnings: percentText(terms.aprBp),
    create_time: Math.floor(product.createdMs / 1000),
    defi_number: heldUnits.toString(),
    earnings_total: kit.amount(earnings, currency),
    defi_coin: currency,
    type: product.details.label === '' ? kit.t('products.defi_type') : product.details.label,
    status: product.status,
    end_time: nextEnd,
    apr_bp: terms.aprBp,
    accrual_start: 'next_day',
    early_exit: terms.earlyExit ?? 'none',
    capacity: terms.totalUnits.toString(),
    sold: product.sold.toString(),
    remaining: product.remaining.toString(),
    per_user_cap: terms.perUserCap === null ? null : terms.perUserCap.toString(),
    total: kit.amount(heldUnits * product.unitMinor + earnings, currency),
    stakes,
    house: kit.house(product),
    rule_text: defiRule(kit, product),
    risk_text: kit.t('products.risk_defi', { currency: kit.code(currency) }),
  };
}
