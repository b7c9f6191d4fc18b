-- Why an order ended unfilled, in more detail. A market order that stops with quantity left now says why:
-- its funds ran out (marketFunds), the next price was past the market's price-protection band (marketBand),
-- or the other side of the book was empty (marketBook); an immediate-or-cancel limit order cancels what it
-- could not take at once (iocUnfilled). Rows written before keep the single old reason, marketUnfilled.
alter table spot_orders drop constraint if exists spot_orders_cancel_reason_check;
alter table spot_orders
  add constraint spot_orders_cancel_reason_check check (
    cancel_reason in ('user', 'selfTrade', 'marketUnfilled', 'marketFunds', 'marketBand', 'marketBook', 'iocUnfilled')
  );

-- The orders page lists one user's orders of every pair, open and ended, newest first, filtered by time.
create index spot_orders_owner_time_idx on spot_orders (owner_key, created_time_ms, order_id);
