-- Seconds (micro) contracts (docs/micro.md), projections of the engine's events (rebuildable from the
-- journal), insert-only so that 50,000 orders settling in one command cost one bulk insert:
-- - micro_orders: one row per accepted order (microOrderPlaced);
-- - micro_results: one row per settled order (microOrderSettled), with the rule version and the two
--   recorded samples it was settled on (seq, time, mark, stale, hash), which the proof call serves with the
--   price record's chain. An order without a result row is running; its open sample is in the engine.
--
-- Amounts are numeric(40,0) minor units of the payable currency; prices integer ticks of the market; times
-- milliseconds since the epoch.
create table micro_orders (
  order_id bigint primary key,
  user_id integer not null,
  market_id integer not null,
  currency_id integer not null,
  direction smallint not null check (direction in (1, 2)),
  seconds integer not null check (seconds > 0),
  profit_ratio_bp integer not null check (profit_ratio_bp >= 0),
  stake numeric(40, 0) not null check (stake > 0),
  fee numeric(40, 0) not null check (fee >= 0),
  accepted_ms bigint not null,
  expiry_ms bigint not null,
  created_seq bigint not null
);
-- A user's orders, newest first.
create index micro_orders_user on micro_orders (user_id, order_id desc);

create table micro_results (
  order_id bigint primary key,
  user_id integer not null,
  currency_id integer not null,
  outcome text not null check (outcome in ('win', 'loss', 'draw', 'void')),
  void_reason text check (void_reason in ('noOpenSample', 'staleOpen', 'staleEnd')),
  max_sample_age_ms integer not null,
  stake numeric(40, 0) not null,
  payout numeric(40, 0) not null,
  fee_refund numeric(40, 0) not null,
  rule_version text not null,
  open_seq bigint,
  open_time_ms bigint,
  open_mark_ticks bigint,
  open_stale boolean,
  open_hash text,
  end_seq bigint,
  end_time_ms bigint,
  end_mark_ticks bigint,
  end_stale boolean,
  end_hash text,
  settled_seq bigint not null,
  settled_ms bigint not null
);
-- A user's closed orders, newest first; public statistics by day.
create index micro_results_user on micro_results (user_id, order_id desc);
create index micro_results_settled on micro_results (settled_ms);
