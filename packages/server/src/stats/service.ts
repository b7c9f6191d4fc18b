// The home page's figures and its activity feed, counted from the database. Nothing here comes from the
// calendar or a random draw (spec 03 section 0): with no users, no trades or no activity, the answer says so.
import { formatDecimal, pow10 } from '@fairex/shared';
import type { Queryable } from '../store/index.ts';

const DAY_MS = 86_400_000;

export interface HomeFigures {
  /** Registered accounts. */
  users: number;
  /** Spot trades with a user on at least one side executed in the last 24 hours. */
  trades_24h: number;
  /** Distinct user accounts with at least one spot trade in the last 24 hours. */
  traders_24h: number;
  /** Markets listed for trading. */
  markets: number;
  /** When these were counted (ISO 8601). */
  as_of: string;
}

export async function countHomeFigures(db: Queryable, nowMs: number): Promise<HomeFigures> {
  const sinceMs = nowMs - DAY_MS;
  const { rows } = await db.query<{ users: number; markets: number; trades: number; traders: number }>(
    `select (select count(*)::int from users) as users,
            (select count(*)::int from markets where is_display) as markets,
            (select count(*)::int from spot_trades where time_ms >= $1 and with_user) as trades,
            (select count(distinct owner)::int from (
               select maker_owner_key as owner from spot_trades where time_ms >= $1 and maker_owner_key > 0
               union all
               select taker_owner_key from spot_trades where time_ms >= $1 and taker_owner_key > 0
             ) owners) as traders`,
    [sinceMs],
  );
  const row = rows[0];
  return {
    users: row?.users ?? 0,
    trades_24h: row?.trades ?? 0,
    traders_24h: row?.traders ?? 0,
    markets: row?.markets ?? 0,
    as_of: new Date(nowMs).toISOString(),
  };
}

export type ActivityKind = 'deposit' | 'withdrawal' | 'trade';

export interface ActivityEntry {
  kind: ActivityKind;
  /** The account, masked: "ab***@***.com", "138****21". */
  account: string;
  /** The amount rounded down to two significant digits, as a decimal string. */
  amount: string;
  currency: string;
  /** The market of a trade ("BTC/USDT"), else null. */
  symbol: string | null;
  /** ISO 8601. */
  time: string;
}

/**
 * An account as others may see it: enough to tell entries apart, too little to find the person. An e-mail
 * keeps two letters of the name and the top-level domain; a phone number its first three and last two digits.
 */
export function maskAccount(account: string): string {
  const trimmed = account.trim();
  const at = trimmed.lastIndexOf('@');
  if (at > 0) {
    const local = trimmed.slice(0, at);
    const domain = trimmed.slice(at + 1);
    const dot = domain.lastIndexOf('.');
    const topLevel = dot >= 0 ? domain.slice(dot) : '';
    return `${local.slice(0, Math.min(2, local.length - 1) || 1)}***@***${topLevel}`;
  }
  const digits = trimmed.replace(/\D/g, '');
  if (digits.length >= 7) return `${digits.slice(0, 3)}****${digits.slice(-2)}`;
  return '***';
}

/** Minor units rounded down to two significant digits: 123456 -> 120000. Zero and below stay as they are. */
export function roundDownSignificant(minor: bigint, digits = 2): bigint {
  if (minor <= 0n) return minor;
  const length = minor.toString().length;
  if (length <= digits) return minor;
  const unit = pow10(length - digits);
  return (minor / unit) * unit;
}

interface ActivityRow {
  kind: ActivityKind;
  account: string;
  amount: string;
  code: string;
  scale: number;
  symbol: string | null;
  time_ms: bigint;
}

/**
 * The latest deposits, withdrawal payouts and trades of users in the last 24 hours, newest first. Trades name
 * the taker when a user took, else the maker; the amount of a trade is its quote amount. Each branch reads a
 * bounded number of rows: the funding branch through a partial index, the trade branch through the primary
 * key over the most recent trades only.
 */
export async function recentActivity(db: Queryable, nowMs: number, limit: number): Promise<ActivityEntry[]> {
  const sinceMs = nowMs - DAY_MS;
  const { rows } = await db.query<ActivityRow>(
    `with funding as (
       select case when l.reason = 100 then 'deposit' else 'withdrawal' end as kind,
              l.owner_key as user_id, l.currency_id,
              case when l.reason = 100 then l.available_after - l.available_before
                   else l.locked_before - l.locked_after end as amount,
              null::text as symbol, l.time_ms
         from account_log l
        where l.reason in (100, 202) and l.owner_key > 0
        order by l.seq desc
        limit $2
     ), trades as (
       select 'trade' as kind,
              case when t.taker_owner_key > 0 then t.taker_owner_key else t.maker_owner_key end as user_id,
              m.quote_currency_id as currency_id, t.quote_amount as amount, m.symbol, t.time_ms
         from spot_trades t
         join markets m on m.id = t.market_id
        where t.with_user
          and t.trade_id > (select coalesce(max(trade_id), 0) - 10000 from spot_trades)
        order by t.trade_id desc
        limit $2
     )
     select a.kind, u.account, a.amount::text as amount, c.code, c.scale, a.symbol, a.time_ms
       from (select * from funding union all select * from trades) a
       join users u on u.id = a.user_id
       join currencies c on c.id = a.currency_id
      where a.time_ms >= $1 and a.amount > 0
      order by a.time_ms desc
      limit $2`,
    [sinceMs, limit],
  );
  return rows.map((row) => ({
    kind: row.kind,
    account: maskAccount(row.account),
    amount: formatDecimal(roundDownSignificant(BigInt(row.amount)), row.scale, { trim: true }),
    currency: row.code,
    symbol: row.symbol,
    time: new Date(Number(row.time_ms)).toISOString(),
  }));
}
