// The home page's figures and its activity feed, counted from the database. Nothing here comes from the
// calendar or a random draw (spec 03 section 0): with no users, no trades or no activity, the answer says so.
// Demo accounts (users.is_demo, DEMO=on) count for nothing, and a figure counted over more than zero and
// fewer than PUBLIC_MINIMUM_ACCOUNTS accounts is withheld (null, `below_minimum`; docs/limits.md).
import { PUBLIC_MINIMUM_ACCOUNTS } from '@fairex/shared/api/site.ts';
import type { ActivityReply, HomeFiguresReply } from '@fairex/shared/api/site.ts';
import type { Queryable } from '../store/index.ts';

const DAY_MS = 86_400_000;

/**
 * A public count over `accounts` accounts: exact when they are none or at least the minimum, null between
 * (the reply then says `below_minimum`).
 */
export function publicCount(count: number, accounts: number): number | null {
  return accounts === 0 || accounts >= PUBLIC_MINIMUM_ACCOUNTS ? count : null;
}

/** The owner keys of demo accounts (a user's owner key is its id), for `<> all(...)` filters. */
const DEMO_KEYS = `array(select id from users where is_demo)`;

/** Spot trades since $1 with a real (non-demo) user on at least one side, and those users. */
const TRADES_SINCE = `
  with demo as (select ${DEMO_KEYS} as keys),
  trades as (
    select t.maker_owner_key, t.taker_owner_key from spot_trades t, demo
     where t.time_ms >= $1 and t.with_user
       and ((t.maker_owner_key > 0 and t.maker_owner_key <> all(demo.keys))
         or (t.taker_owner_key > 0 and t.taker_owner_key <> all(demo.keys)))),
  traders as (
    select distinct owner from (
      select maker_owner_key as owner from trades union all select taker_owner_key from trades) owners, demo
     where owner > 0 and owner <> all(demo.keys))`;

export async function countHomeFigures(db: Queryable, nowMs: number): Promise<HomeFiguresReply> {
  const sinceMs = nowMs - DAY_MS;
  const { rows } = await db.query<{ users: number; markets: number; trades: number; traders: number }>(
    `${TRADES_SINCE}
     select (select count(*)::int from users where not is_demo) as users,
            (select count(*)::int from markets where is_display) as markets,
            (select count(*)::int from trades) as trades,
            (select count(*)::int from traders) as traders`,
    [sinceMs],
  );
  const row = rows[0];
  const users = row?.users ?? 0;
  const traders = row?.traders ?? 0;
  const reply = {
    users: publicCount(users, users),
    trades_24h: publicCount(row?.trades ?? 0, traders),
    traders_24h: publicCount(traders, traders),
  };
  return {
    ...reply,
    markets: row?.markets ?? 0,
    minimum_accounts: PUBLIC_MINIMUM_ACCOUNTS,
    below_minimum: Object.values(reply).some((value) => value === null),
    as_of: new Date(nowMs).toISOString(),
  };
}

const HOUR_MS = 3_600_000;

/**
 * The home footer's activity line: counts over the last hour of recorded rows with a user in them, never
 * one user's activity (no account, amount or time of any single entry).
 */
export async function countActivity(db: Queryable, nowMs: number): Promise<ActivityReply> {
  const sinceMs = nowMs - HOUR_MS;
  const { rows } = await db.query<{
    trades: number;
    traders: number;
    deposits: number;
    depositors: number;
    withdrawals: number;
    withdrawers: number;
  }>(
    `${TRADES_SINCE},
     moves as (
       select l.reason, l.owner_key from account_log l, demo
        where l.reason in (100, 202) and l.owner_key > 0 and l.time_ms >= $1 and l.owner_key <> all(demo.keys))
     select (select count(*)::int from trades) as trades,
            (select count(*)::int from traders) as traders,
            (select count(*)::int from moves where reason = 100) as deposits,
            (select count(distinct owner_key)::int from moves where reason = 100) as depositors,
            (select count(*)::int from moves where reason = 202) as withdrawals,
            (select count(distinct owner_key)::int from moves where reason = 202) as withdrawers`,
    [sinceMs],
  );
  const row = rows[0];
  const traders = row?.traders ?? 0;
  const reply = {
    trades: publicCount(row?.trades ?? 0, traders),
    traders: publicCount(traders, traders),
    deposits: publicCount(row?.deposits ?? 0, row?.depositors ?? 0),
    withdrawals: publicCount(row?.withdrawals ?? 0, row?.withdrawers ?? 0),
  };
  return {
    window_minutes: HOUR_MS / 60_000,
    ...reply,
    minimum_accounts: PUBLIC_MINIMUM_ACCOUNTS,
    below_minimum: Object.values(reply).some((value) => value === null),
    as_of: new Date(nowMs).toISOString(),
  };
}
