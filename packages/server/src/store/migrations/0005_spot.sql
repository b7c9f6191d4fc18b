-- Spot trading reads a user's own fills (the trading page's order history, newest first). A trade names its
-- maker and its taker, so each side gets an index that serves "this owner's trades by trade id".
create index spot_trades_maker_owner_idx on spot_trades (maker_owner_key, trade_id);
create index spot_trades_taker_owner_idx on spot_trades (taker_owner_key, trade_id);
