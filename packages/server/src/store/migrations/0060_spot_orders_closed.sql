-- Spot orders: one row per order, written once when it closes (filled or cancelled). Open orders are the
-- engine's live state (its spot queries by owner and by id); the row no longer exists while an order is
-- open, so there is no insert-then-update per order.
--
-- Codes instead of text (spot/order-codes.ts): side 1 buy, 2 sell; kind 1 limit, 2 market; status 1 filled,
-- 2 cancelled; cancel_reason 1 user, 2 selfTrade, 3 marketUnfilled, 4 marketFunds, 5 marketBand,
-- 6 marketBook, 7 iocUnfilled (null when filled). Ids, ticks, lots, seqs and times are integers.
--
-- Money stays numeric(40, 0): a column is bigint only when every amount it can hold fits a signed 64-bit
-- integer, and the engine admits up to 10^36 minor units of currencies with up to 18 decimals (2^63 minor
-- units of an 18-decimal currency is 9.2 whole units), so no money column qualifies.
--
-- Dropped: hold_amount, base_filled, released_amount and created_seq, which no read used (the holds and
-- releases are in account_log; base filled is filled_lots times the market's lot). The one index serves
-- every read: a user's orders newest first (orders page history, back-office user detail), one order by
-- owner and id (a repeated placement), and the retention's system owners (owner_key < 0).
create table spot_orders_closed (
  owner_key integer not null,
  order_id bigint not null,
  market_id integer not null,
  side smallint not null check (side in (1, 2)),
  kind smallint not null check (kind in (1, 2)),
  status smallint not null check (status in (1, 2)),
  cancel_reason smallint check (cancel_reason between 1 and 7),
  -- 0 for a market order.
  price_ticks bigint not null,
  quantity_lots bigint not null,
  filled_lots bigint not null,
  -- Sums over the order's fills: quote paid (buy) or received before fees (sell), and the fees it paid in
  -- the currency it received.
  quote_filled numeric(40, 0) not null,
  fee_paid numeric(40, 0) not null,
  client_order_id text,
  created_time_ms bigint not null,
  -- The command that closed the order.
  closed_seq bigint not null,
  closed_time_ms bigint not null
);

insert into spot_orders_closed
select owner_key, order_id, market_id,
       case side when 'buy' then 1 else 2 end,
       case kind when 'limit' then 1 else 2 end,
       case status when 'filled' then 1 else 2 end,
       case when status = 'filled' then null
            else case cancel_reason when 'user' then 1 when 'selfTrade' then 2 when 'marketUnfilled' then 3
                   when 'marketFunds' then 4 when 'marketBand' then 5 when 'marketBook' then 6
                   when 'iocUnfilled' then 7 end end,
       price_ticks, quantity_lots, filled_lots, quote_filled, fee_paid, client_order_id, created_time_ms,
       updated_seq, updated_time_ms
  from spot_orders
 where status in ('filled', 'cancelled');

drop table spot_orders;
alter table spot_orders_closed rename to spot_orders;
create unique index spot_orders_owner_idx on spot_orders (owner_key, order_id);

-- Every read of a market's trades asks for trades with a user (the partial index below); nothing reads the
-- whole market index.
drop index if exists spot_trades_market_idx;
