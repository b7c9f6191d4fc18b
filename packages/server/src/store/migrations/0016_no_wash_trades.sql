-- No wash trades in public figures. The engine no longer lets two of the exchange's own owners (house,
-- market maker) trade with each other, nor one owner with itself; but a database written before holds such
-- trades (the house used to take from the market maker's quotes to drag the last price after the index).
--
-- with_user marks each trade with whether a user (a positive owner key) is on at least one side. It is
-- derived from the row itself, so older rows get it at once and a rebuild of the projections gives the
-- same value. Every public figure (trade tape, candles, tickers, home counters) reads only rows with
-- with_user; the back office may still count the others apart.
alter table spot_trades
  add column with_user boolean not null generated always as (maker_owner_key > 0 or taker_owner_key > 0) stored;

-- The public trade tape and the last price read a market's latest trades with a user.
create index spot_trades_market_with_user_idx on spot_trades (market_id, trade_id) where with_user;

-- Candles are a projection of spot_trades. Bars folded before this migration counted the wash trades, so
-- the bars from trades are dropped and the progress mark reset: the next start folds every trade with a
-- user again (backfilled history, source other than 'trades', stays as it is).
delete from candles where source = 'trades';
delete from market_data_progress where name = 'candles';

-- The house no longer trades to follow the index, so its threshold setting is gone.
alter table market_maker_settings drop column follow_threshold_ppm;
