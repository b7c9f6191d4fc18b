-- Leveraged contracts against the house (docs/lever.md, docs/lever-calls.md): projections of the lever
-- area's events (rebuildable from the journal), insert-only so that a liquidation closing many positions in
-- one command costs one bulk insert per table. Live records (pending entries and holdings) are read from the
-- engine; these tables keep what the lists, the history and the back office need once a record has ended.
-- - lever_positions: one row per record as placed: a limit entry (leverEntryPlaced) or a position opened at
--   market (leverPositionOpened, from_entry false), with the rule values copied onto it;
-- - lever_opens: a limit entry that opened (leverPositionOpened, from_entry true), at which mark and time;
-- - lever_stops: every change of a holding's take-profit and stop-loss (leverStopsSet), the latest wins;
-- - lever_ends: a record that ended: closed (status 3, leverPositionClosed) or revoked (status 4,
--   leverEntryRevoked), with the money moved;
-- - lever_liquidations: one row per liquidation of an account (leverLiquidated), with the mark, the risk
--   rate and the threshold it crossed.
--
-- Amounts are numeric(40,0) minor units of the quote currency; prices integer ticks of the spot market;
-- rates ppm, risk rates and thresholds basis points; times milliseconds since the epoch.
create table lever_positions (
  position_id bigint primary key,
  user_id integer not null,
  market_id integer not null,
  quote_currency_id integer not null,
  side smallint not null check (side in (1, 2)),
  share integer not null check (share > 0),
  lots bigint not null check (lots > 0),
  multiple integer not null check (multiple > 0),
  entry_ticks bigint not null,
  contract_value numeric(40, 0) not null,
  margin numeric(40, 0) not null,
  fee numeric(40, 0) not null,
  lots_per_share integer not null,
  spread_ppm integer not null,
  fee_ppm integer not null,
  overnight_ppm integer not null,
  threshold_bp integer not null,
  liquidation_fee_ppm integer not null,
  -- 0 a limit entry (entry_ticks is its target), 1 opened at market.
  placed_status smallint not null check (placed_status in (0, 1)),
  placed_ms bigint not null,
  mark_ticks bigint not null,
  created_seq bigint not null
);
create index lever_positions_user on lever_positions (user_id, position_id desc);

create table lever_opens (
  position_id bigint primary key,
  opened_ms bigint not null,
  mark_ticks bigint not null,
  opened_seq bigint not null
);

create table lever_stops (
  position_id bigint not null,
  seq bigint not null,
  event_index integer not null,
  take_profit_ticks bigint not null,
  stop_loss_ticks bigint not null,
  primary key (position_id, seq, event_index)
);

create table lever_ends (
  position_id bigint primary key,
  user_id integer not null,
  market_id integer not null,
  quote_currency_id integer not null,
  status smallint not null check (status in (3, 4)),
  reason text check (reason in ('user', 'batch', 'takeProfit', 'stopLoss', 'liquidation')),
  ended_ms bigint not null,
  close_ticks bigint,
  mark_ticks bigint,
  margin numeric(40, 0) not null,
  origin_margin numeric(40, 0) not null,
  overnight_paid numeric(40, 0) not null,
  profit numeric(40, 0) not null,
  returned numeric(40, 0) not null,
  loss_from_margin numeric(40, 0) not null,
  loss_from_balance numeric(40, 0) not null,
  loss_from_other_margins numeric(40, 0) not null,
  shortfall numeric(40, 0) not null,
  house_unpaid numeric(40, 0) not null,
  fee_refund numeric(40, 0) not null,
  ended_seq bigint not null
);
-- A user's closed or revoked records, newest first; the 90-day loss share by close time.
create index lever_ends_user on lever_ends (user_id, status, position_id desc);
create index lever_ends_time on lever_ends (ended_ms);

create table lever_liquidations (
  seq bigint not null,
  event_index integer not null,
  user_id integer not null,
  quote_currency_id integer not null,
  market_id integer not null,
  mark_ticks bigint not null,
  marks text not null,
  time_ms bigint not null,
  risk_rate_bp integer not null,
  threshold_bp integer not null,
  equity numeric(40, 0) not null,
  origin_margin numeric(40, 0) not null,
  position_ids text not null,
  shortfall numeric(40, 0) not null,
  liquidation_fee numeric(40, 0) not null,
  primary key (seq, event_index)
);
create index lever_liquidations_user on lever_liquidations (user_id, seq desc);
