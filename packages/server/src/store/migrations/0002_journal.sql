-- The engine journal, engine snapshots, and the projections derived from the engine's events.
--
-- The journal is the source of truth: every command the engine runner stamped, in seq order. Everything
-- else here can be rebuilt from it. Amounts are numeric(40,0) minor units because the engine allows amounts
-- up to 10^36 (currencies with 18 decimals), beyond a signed 64-bit integer. Times are the milliseconds the
-- runner stamped on the command (bigint), never the database clock, so a rebuild reproduces them exactly.
-- Owners are integer keys: a user id (> 0) or a system owner (house -1, fees -2, insurance -3,
-- marketMaker -4, outside -5).

-- One row per group-committed batch: the batch's encoded envelopes, one per line. A batch is written in
-- one statement, which is what lets one transaction carry thousands of commands.
create table engine_journal (
  first_seq bigint primary key check (first_seq > 0),
  last_seq bigint not null,
  command_count integer not null check (command_count > 0),
  envelopes text not null,
  -- The engine's state hash after last_seq, recorded at checkpoints; recovery verifies it.
  state_hash text,
  committed_at timestamptz not null default now(),
  check (command_count = last_seq - first_seq + 1)
);

-- The engine's full state at a seq that ends a journal batch. Recovery loads the latest and replays after.
create table engine_snapshots (
  seq bigint primary key check (seq >= 0),
  -- The time stamped on the command at seq, so that stamping stays monotonic after a restart.
  time_ms bigint not null,
  state_hash text not null,
  body text not null,
  created_at timestamptz not null default now()
);

-- Spot orders as their events left them: one row per accepted order, updated by fills and cancels.
create table spot_orders (
  order_id bigint primary key,
  owner_key integer not null,
  market_id integer not null,
  side text not null check (side in ('buy', 'sell')),
  kind text not null check (kind in ('limit', 'market')),
  -- 0 for a market order.
  price_ticks bigint not null,
  quantity_lots bigint not null,
  filled_lots bigint not null default 0,
  -- What the order held at acceptance: quote for a buy, base for a sell.
  hold_amount numeric(40, 0) not null,
  -- Sums over the order's fills: base and quote moved, and the fees it paid (in the currency it received).
  base_filled numeric(40, 0) not null default 0,
  quote_filled numeric(40, 0) not null default 0,
  fee_paid numeric(40, 0) not null default 0,
  -- What returned to available when the order ended (cancel rest, market-order leftover).
  released_amount numeric(40, 0) not null default 0,
  status text not null check (status in ('accepted', 'resting', 'filled', 'cancelled')),
  cancel_reason text check (cancel_reason in ('user', 'selfTrade', 'marketUnfilled')),
  client_order_id text,
  created_seq bigint not null,
  created_time_ms bigint not null,
  updated_seq bigint not null,
  updated_time_ms bigint not null
)
-- Room left in each page lets fills and cancels update an order in place (HOT), without touching indexes.
with (fillfactor = 80);

create index spot_orders_owner_idx on spot_orders (owner_key, order_id);

-- Every fill, at the maker's price.
create table spot_trades (
  trade_id bigint primary key,
  market_id integer not null,
  price_ticks bigint not null,
  quantity_lots bigint not null,
  base_amount numeric(40, 0) not null,
  quote_amount numeric(40, 0) not null,
  maker_order_id bigint not null,
  maker_owner_key integer not null,
  taker_order_id bigint not null,
  taker_owner_key integer not null,
  maker_side text not null check (maker_side in ('buy', 'sell')),
  maker_fee numeric(40, 0) not null,
  maker_fee_currency_id integer not null,
  taker_fee numeric(40, 0) not null,
  taker_fee_currency_id integer not null,
  seq bigint not null,
  time_ms bigint not null
);

create index spot_trades_market_idx on spot_trades (market_id, trade_id);

-- Every balance change of every account (users and system owners), with before and after of both parts.
-- A transfer writes two rows sharing transfer_id; a hold or release writes one. The change is after minus
-- before; it is not stored, because this is the largest table and the one written most.
create table account_log (
  seq bigint not null,
  -- Position of the event among its command's events; (seq, event_index) orders the log exactly.
  event_index integer not null,
  transfer_id bigint not null,
  owner_key integer not null,
  wallet text not null check (wallet in ('change', 'lever', 'micro', 'ico', 'miner', 'defi')),
  currency_id integer not null,
  available_before numeric(40, 0) not null,
  available_after numeric(40, 0) not null,
  locked_before numeric(40, 0) not null,
  locked_after numeric(40, 0) not null,
  -- The engine's reason code (100s funding, 200s withdrawals, 300s spot).
  reason smallint not null,
  -- The order, trade or withdrawal the change belongs to; 0 when none.
  reference_id bigint not null,
  memo text,
  time_ms bigint not null
);

create index account_log_owner_idx on account_log (owner_key, currency_id, seq);
