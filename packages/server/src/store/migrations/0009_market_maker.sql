-- The market maker's settings per pair, changed from the back office while the exchange runs.
--
-- A row exists only for a pair whose settings an administrator changed; a missing row, or a null column,
-- means the default of the server (market/market-maker.ts, DEFAULT_MARKET_MAKER_CONFIG). Rates are parts
-- per million of the index price; the level value is decimal text in the pair's quote currency. The audit
-- log keeps who changed what.
create table market_maker_settings (
  market_id integer primary key references markets (id) on delete cascade,
  -- false: the market maker withdraws its quotes from the pair and places none, and the house does not trade
  -- to follow the index there.
  enabled boolean not null default true,
  levels integer check (levels between 1 and 50),
  half_spread_ppm integer check (half_spread_ppm between 1 and 100000),
  level_step_ppm integer check (level_step_ppm between 1 and 100000),
  level_notional text check (level_notional ~ '^[0-9]{1,24}(\.[0-9]{1,18})?$' and level_notional !~ '^[0.]+$'),
  follow_threshold_ppm integer check (follow_threshold_ppm between 1 and 100000),
  updated_at timestamptz not null default now()
);
