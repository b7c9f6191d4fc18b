// The dashboard's figures, each read from where it is true: users and queues from SQL, trading volume from
// the trades projection, balances from the engine. Nothing is estimated.
import type { Engine } from '@fairex/engine';
import { formatDecimal } from '@fairex/shared';
import { MAKER_OWNER_KEY } from '../market/market-maker.ts';
import type { Queryable } from '../store/index.ts';
import type { Dashboard, MarketVolume, PendingWithdrawalTotal } from '@fairex/shared';
import { solvencyReport } from './solvency.ts';

export type { Dashboard, MarketVolume, PendingWithdrawalTotal } from '@fairex/shared';

export const VOLUME_WINDOW_MS = 24 * 3_600_000;

async function countOf(db: Queryable, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.query<{ count: number }>(sql, params);
  return rows[0]?.count ?? 0;
}

async function marketVolumes(db: Queryable, sinceMs: number): Promise<MarketVolume[]> {
  const { rows } = await db.query<{
    id: number;
    symbol: string;
    base_scale: number;
    quote_scale: number;
    trades: number;
    base_volume: string;
    quote_volume: string;
    user_trades: number;
    user_quote_volume: string;
    maker_fills: number;
  }>(
    `select m.id, m.symbol, b.scale as base_scale, q.scale as quote_scale,
            coalesce(t.trades, 0)::int as trades,
            coalesce(t.base_volume, 0)::text as base_volume,
            coalesce(t.quote_volume, 0)::text as quote_volume,
            coalesce(t.user_trades, 0)::int as user_trades,
            coalesce(t.user_quote_volume, 0)::text as user_quote_volume,
            coalesce(t.maker_fills, 0)::int as maker_fills
       from markets m
       join currencies b on b.id = m.base_currency_id
       join currencies q on q.id = m.quote_currency_id
       left join (
         select market_id, count(*) as trades, sum(base_amount) as base_volume, sum(quote_amount) as quote_volume,
                count(*) filter (where with_user) as user_trades,
                sum(quote_amount) filter (where with_user) as user_quote_volume,
                count(*) filter (where maker_owner_key = $2 or taker_owner_key = $2) as maker_fills
           from spot_trades where time_ms >= $1 group by market_id
       ) t on t.market_id = m.id
      order by m.display_order, m.id`,
    [sinceMs, MAKER_OWNER_KEY],
  );
  return rows.map((row) => ({
    market_id: row.id,
    symbol: row.symbol,
    trades: row.trades,
    base_volume: formatDecimal(BigInt(row.base_volume), row.base_scale),
    quote_volume: formatDecimal(BigInt(row.quote_volume), row.quote_scale),
    user_trades: row.user_trades,
    user_quote_volume: formatDecimal(BigInt(row.user_quote_volume), row.quote_scale),
    maker_fills: row.maker_fills,
  }));
}

async function pendingWithdrawals(db: Queryable): Promise<PendingWithdrawalTotal[]> {
  const { rows } = await db.query<{
    currency_id: number;
    code: string;
    scale: number;
    count: number;
    amount: string;
  }>(
    `select w.currency_id, c.code, c.scale, count(*)::int as count, sum(w.amount)::text as amount
       from withdrawals w join currencies c on c.id = w.currency_id
      where w.status = 'pending' group by w.currency_id, c.code, c.scale order by w.currency_id`,
  );
  return rows.map((row) => ({
    currency_id: row.currency_id,
    code: row.code,
    count: row.count,
    amount: formatDecimal(BigInt(row.amount), row.scale),
  }));
}

/** Where the journal and its projector stand (the runner's stats), for the dashboard's engine card. */
export interface JournalProgress {
  lastCommittedSeq: number;
  projectedSeq: number;
  projectorLag: { commands: number; ms: number };
}

export async function dashboard(
  db: Queryable,
  engine: Engine,
  nowMs = Date.now(),
  journal?: JournalProgress,
): Promise<Dashboard> {
  const byCurrency = await pendingWithdrawals(db);
  return {
    users: {
      total: await countOf(db, 'select count(*)::int as count from users'),
      last_24h: await countOf(
        db,
        `select count(*)::int as count from users where created_at > now() - interval '24 hours'`,
      ),
      verified: await countOf(db, 'select count(*)::int as count from users where review_status = 2'),
      frozen: await countOf(db, 'select count(*)::int as count from user_freezes'),
    },
    volume: await marketVolumes(db, nowMs - VOLUME_WINDOW_MS),
    waiting: {
      real_name: await countOf(
        db,
        `select count(*)::int as count from real_name_submissions where status = 'pending'`,
      ),
      withdrawals: byCurrency.reduce((sum, row) => sum + row.count, 0),
      withdrawals_by_currency: byCurrency,
      deposits_uncredited: await countOf(
        db,
        `select count(*)::int as count from deposits where status = 'pending'`,
      ),
      payouts_unconfirmed: await countOf(
        db,
        `select count(*)::int as count from withdrawals where status = 'approved'`,
      ),
      callbacks_refused_24h: await countOf(
        db,
        `select count(*)::int as count from custody_callbacks
          where outcome = 'refused' and received_at > now() - interval '24 hours'`,
      ),
    },
    solvency: solvencyReport(engine.ledger.accounts(), engine.ledger.currencies()),
    ...(journal && {
      engine: {
        committed_seq: journal.lastCommittedSeq,
        projected_seq: journal.projectedSeq,
        projector_lag_commands: journal.projectorLag.commands,
        projector_lag_ms: journal.projectorLag.ms,
      },
    }),
    generated_at: new Date(nowMs).toISOString(),
  };
}
