-- Seconds (micro) contracts (docs/micro.md): one row per order, a projection of the engine's
-- microOrderPlaced, microOrderOpened and microOrderSettled events (rebuildable from the journal).
--
-- Amounts are numeric(40,0) minor units of the payable currency; prices integer ticks of the market; times
-- milliseconds since the epoch. A settled row keeps the rule version and the two recorded samples it was
-- settled on (seq, time, mark, stale, hash), which the proof call serves with the price record's chain.
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
  created_seq bigint not null,
  -- 1 running, 3 closed.
  status smallint not null default 1 check (status in (1, 3)),
  outcome text check (outcome in ('win', 'loss', 'draw', 'void')),
  void_reason text check (void_reason in ('noOpenSample', 'staleOpen', 'staleEnd')),
  max_sample_age_ms integer,
  payout numeric(40, 0),
  fee_refund numeric(40, 0),
  rule_version text,
  open_seq bigint,
  open_time_ms bigint,
  open_mark_ticks bigint,
  open_stale boolean,
  open_hash text check (open_hash ~ '^[0-9a-f]{64}$'),
  end_seq bigint,
  end_time_ms bigint,
  end_mark_ticks bigint,
  end_stale boolean,
  end_hash text check (end_hash ~ '^[0-9a-f]{64}$'),
  settled_seq bigint,
  settled_ms bigint
);
-- A user's orders, newest first, by status.
create index micro_orders_user on micro_orders (user_id, status, order_id desc);
-- Public statistics by day.
create index micro_orders_settled on micro_orders (settled_ms) where status = 3;
