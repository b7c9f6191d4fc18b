// The seconds contracts' back-office screen's readers (MicroPage.tsx): pure functions, tested in
// admin.test.ts. Ratios and fees arrive in basis points (integers); amounts stay decimal text.
import type { MicroAdminConfig } from '@fairex/shared';
import type { Query } from '../../data/admin-api.ts';

/** Basis points as a percent text, by integer arithmetic: 8500 -> "85", 1250 -> "12.5", 5 -> "0.05". */
export function bpPercent(bp: number): string {
  if (!Number.isSafeInteger(bp) || bp < 0) return '';
  const whole = Math.floor(bp / 100);
  const cents = bp % 100;
  if (cents === 0) return String(whole);
  const fraction = String(cents).padStart(2, '0').replace(/0$/, '');
  return `${whole}.${fraction}`;
}

/** The preset amounts typed as one line ("10, 50 100"): the decimal texts, in order, without blanks. */
export function presetsFromText(text: string): string[] {
  return text
    .split(/[\s,，、;]+/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

export interface OrderFilters {
  page: number;
  userId?: number | undefined;
  marketId?: number | undefined;
  outcome?: 'win' | 'loss' | 'draw' | 'void' | undefined;
  /** The settlement day range, inclusive, as milliseconds since the epoch of each day's start. */
  fromDayMs?: number | undefined;
  toDayMs?: number | undefined;
}

const DAY_MS = 86_400_000;

/** The query of GET /backoffice/micro/orders: `to` is the end of the last chosen day (exclusive). */
export function ordersQuery(filters: OrderFilters): Query {
  return {
    page: filters.page,
    user_id: filters.userId,
    market_id: filters.marketId,
    outcome: filters.outcome,
    from: filters.fromDayMs,
    to: filters.toDayMs === undefined ? undefined : filters.toDayMs + DAY_MS,
  };
}

/** The pairs a cap may be set for in a currency: the engine's pairs quoted in it, by symbol. */
export function capMarkets(config: MicroAdminConfig, currencyId: number): { id: number; symbol: string }[] {
  return config.markets
    .filter((market) => market.quote_currency_id === currencyId)
    .map(({ id, symbol }) => ({ id, symbol }))
    .sort((a, b) => a.symbol.localeCompare(b.symbol));
}

/** The currencies the engine knows that are not yet payable (what "add a currency" offers). */
export function addableCurrencies(config: MicroAdminConfig): { id: number; code: string }[] {
  const payable = new Set(config.currencies.map((currency) => currency.currency_id));
  return config.all_currencies
    .filter((currency) => !payable.has(currency.id))
    .map(({ id, code }) => ({ id, code }));
}
