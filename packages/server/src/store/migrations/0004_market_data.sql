-- Market data: candles of every chart interval, the candle projection's progress, and the record of which
-- history was backfilled rather than traded here.
--
-- Prices are integer ticks of the market (price = ticks x markets.price_tick / 10^markets.price_scale);
-- volume is base currency minor units, turnover quote currency minor units, numeric(40,0) like the trade
-- amounts they sum. Times are milliseconds since the epoch (UTC).

-- One bar per market, period and bucket. Bars from this exchange's own trades have source 'trades' and are
-- a projection of spot_trades (rebuildable from it). Bars filled in on a first start so that every interval
-- shows history say where they came from: 'simulated' (the seeded price simulator) or the name of the
-- exchange whose public history was loaded (e.g. 'binance'). Backfilled bars only cover buckets that ended
-- before the backfill ran, so no bar mixes backfilled history with real trades.
create table candles (
  market_id integer not null references markets (id),
  -- 1min, 5min, 15min, 30min, 60min, 1day, 1week, 1mon. Minute and hour buckets start at multiples of their
  -- length since the epoch; day, week (Monday) and month buckets start at midnight Asia/Shanghai (UTC+8).
  period text not null check (period in ('1min', '5min', '15min', '30min', '60min', '1day', '1week', '1mon')),
  open_time_ms bigint not null check (open_time_ms >= 0),
  open_ticks bigint not null check (open_ticks > 0),
  high_ticks bigint not null,
  low_ticks bigint not null,
  close_ticks bigint not null,
  volume numeric(40, 0) not null default 0 check (volume >= 0),
  turnover numeric(40, 0) not null default 0 check (turnover >= 0),
  trade_count integer not null default 0 check (trade_count >= 0),
  -- The first and last trade folded into the bar; null for backfilled bars.
  first_trade_id bigint,
  last_trade_id bigint,
  source text not null check (source ~ '^[a-z][a-z0-9_]{0,31}$'),
  primary key (market_id, period, open_time_ms),
  check (low_ticks > 0 and low_ticks <= least(open_ticks, close_ticks)),
  check (high_ticks >= greatest(open_ticks, close_ticks)),
  check ((source = 'trades') = (first_trade_id is not null and last_trade_id is not null))
);

-- How far a projection outside the journal transaction has folded the engine's output: the candle
-- projection stores the last spot trade id it folded, in the same transaction as the bars, so a restart
-- folds exactly the trades after it.
create table market_data_progress (
  name text primary key,
  last_trade_id bigint not null check (last_trade_id >= 0),
  updated_at timestamptz not null default now()
);

-- One row per market whose history was backfilled: from where, and which time range the backfilled bars
-- cover. Its presence is what makes a backfill happen once per market.
create table market_backfills (
  market_id integer primary key references markets (id),
  source text not null check (source ~ '^[a-z][a-z0-9_]{0,31}$'),
  from_ms bigint not null,
  to_ms bigint not null check (to_ms >= from_ms),
  bar_count integer not null check (bar_count >= 0),
  created_at timestamptz not null default now()
);
