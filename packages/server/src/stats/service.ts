// The home page's figures and its activity feed, counted from the database. Nothing here comes from the
// calendar or a random draw (spec 03 section 0): with no users, no trades or no activity, the answer says so.
import type { ActivityReply, HomeFiguresReply } from '@fairex/shared/api/site.ts';
import type { Queryable } from '../store/index.ts';

const DAY_MS = 86_400_000;

export async function countHomeFigures(db: Queryable, nowMs: number): Promise<HomeFiguresReply> {
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

const HOUR_MS = 3_600_000;

/**
 * The home footer's activity line: counts over the last hour of recorded rows with a user in them, never
 * one user's activity (no account, amount or time of any single entry).
 */
export async function countActivity(db: Queryable, nowMs: number): Promise<ActivityReply> {
  const sinceMs = nowMs - HOUR_MS;
  const { rows } = await db.query<{ trades: number; traders: number; deposits: number; withdrawals: number }>(
    `select (select count(*)::int from spot_trades where time_ms >= $1 and with_user) as trades,
            (select count(distinct owner)::int from (
               select maker_owner_key as owner from spot_trades where time_ms >= $1 and maker_owner_key > 0
               union all
               select taker_owner_key from spot_trades where time_ms >= $1 and taker_owner_key > 0
             ) owners) as traders,
            (select count(*)::int from account_log
              where reason = 100 and owner_key > 0 and time_ms >= $1) as deposits,
            (select count(*)::int from account_log
              where reason = 202 and owner_key > 0 and time_ms >= $1) as withdrawals`,
    [sinceMs],
  );
  const row = rows[0];
  return {
    window_minutes: HOUR_MS / 60_000,
    trades: row?.trades ?? 0,
    traders: row?.traders ?? 0,
    deposits: row?.deposits ?? 0,
    withdrawals: row?.withdrawals ?? 0,
    as_of: new Date(nowMs).toISOString(),
  };
}
