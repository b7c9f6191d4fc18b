// The products back-office screen's readers (ProductsPage.tsx): pure functions, tested in products-data.test.ts.
// Rates arrive in basis points (integers), amounts as decimal text, days as UTC day numbers.
import type { AdminProductLine, ProductKind } from '@fairex/shared';

const DAY_MS = 86_400_000;

/** A UTC day number (days since 1970-01-01) as its date, "YYYY-MM-DD". */
export function dayDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The UTC day number of a "YYYY-MM-DD" date; null for anything else. */
export function dayNumber(date: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isFinite(ms) ? Math.floor(ms / DAY_MS) : null;
}

/** The UTC day after the one `nowMs` falls in: the first day a rate may still be recorded for. */
export function nextDay(nowMs: number): number {
  return Math.floor(nowMs / DAY_MS) + 1;
}

/** The terms form's values: everything a kind may carry, the ones it does not use left undefined. */
export interface TermsValues {
  kind: ProductKind;
  title: string;
  logo?: string | undefined;
  white?: string | undefined;
  image?: string | undefined;
  label?: string | undefined;
  description?: string | undefined;
  start_time: number;
  end_time: number;
  /** ico: token; miner: earned; defi: staked. */
  currency_id: number;
  pay_currency_id?: number | undefined;
  total: number;
  price?: string | undefined;
  fee_bp?: number | undefined;
  days?: number | undefined;
  rate_kind?: 'fixed' | 'recorded' | undefined;
  earnings_min?: string | undefined;
  earnings_max?: string | undefined;
  apr_bp?: number | undefined;
  early_exit?: 'forfeit' | 'none' | undefined;
  per_user_cap?: number | null | undefined;
}

function optionalText(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/**
 * The body of /backoffice/products/create (or /edit with `id`) for the form's values, in the shape the shared
 * schema of the kind expects: only the kind's fields, blanks left out. A fixed miner rate sends min = max.
 */
export function termsBody(values: TermsValues, id?: number): Record<string, unknown> {
  const common: Record<string, unknown> = {
    kind: values.kind,
    title: values.title.trim(),
    logo: optionalText(values.logo),
    white: optionalText(values.white),
    image: optionalText(values.image),
    label: optionalText(values.label),
    description: optionalText(values.description),
    start_time: values.start_time,
    end_time: values.end_time,
    total: values.total,
    per_user_cap: values.per_user_cap ?? undefined,
  };
  if (id !== undefined) common.id = id;
  let body: Record<string, unknown>;
  if (values.kind === 'ico')
    body = {
      ...common,
      token_currency_id: values.currency_id,
      pay_currency_id: values.pay_currency_id,
      price: values.price,
    };
  else if (values.kind === 'miner') {
    const fixed = values.rate_kind === 'fixed';
    body = {
      ...common,
      earn_currency_id: values.currency_id,
      pay_currency_id: values.pay_currency_id,
      price: values.price,
      fee_bp: values.fee_bp,
      days: values.days,
      rate_kind: values.rate_kind,
      earnings_min: values.earnings_min,
      earnings_max: fixed ? values.earnings_min : values.earnings_max,
    };
  } else
    body = {
      ...common,
      currency_id: values.currency_id,
      days: values.days,
      apr_bp: values.apr_bp,
      early_exit: values.early_exit,
    };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

/** The form's values for a product's current terms (the edit dialog starts from them). */
export function termsValues(line: AdminProductLine): TermsValues {
  return {
    kind: line.kind,
    title: line.title,
    logo: line.logo,
    white: line.white,
    image: line.image,
    label: line.label,
    description: line.description,
    start_time: line.start_time,
    end_time: line.end_time,
    currency_id: line.currency_id,
    pay_currency_id: line.pay_currency_id ?? undefined,
    total: Number(line.total),
    price: line.price ?? undefined,
    fee_bp: line.fee_bp ?? undefined,
    days: line.days ?? undefined,
    rate_kind: line.rate_kind ?? undefined,
    earnings_min: line.earnings_min ?? undefined,
    earnings_max: line.earnings_max ?? undefined,
    apr_bp: line.apr_bp ?? undefined,
    early_exit: line.early_exit ?? undefined,
    per_user_cap: line.per_user_cap === null ? null : Number(line.per_user_cap),
  };
}
