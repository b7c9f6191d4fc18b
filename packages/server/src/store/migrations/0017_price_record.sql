-- The price record (docs/price-record.md): one row per price sample of a market, a projection of the
-- engine's priceSampled events (rebuildable from the journal), and the samples published as heads.
--
-- Prices are integer ticks of the market (null before the market's first good sample); times are
-- milliseconds since the epoch. `sources` is the sample's inputs as compact JSON text,
-- [[name, price_ticks, time_ms], ...] in name order. Hashes are 64 lowercase hex characters:
-- hash = SHA-256(prev_hash || canonical record).
create table price_samples (
  market_id integer not null,
  seq bigint not null check (seq > 0),
  time_ms bigint not null check (time_ms >= 0),
  source_time_ms bigint,
  index_ticks bigint check (index_ticks > 0),
  mark_ticks bigint check (mark_ticks > 0),
  sources text not null,
  stale boolean not null,
  prev_hash text not null check (prev_hash ~ '^[0-9a-f]{64}$'),
  hash text not null check (hash ~ '^[0-9a-f]{64}$'),
  primary key (market_id, seq)
);
-- Range reads (samples, mark bars) by market and time.
create index price_samples_time on price_samples (market_id, time_ms);

-- Samples published as their market's head: the first of each head interval (PRICE_HEAD_INTERVAL_MS).
create table price_heads (
  market_id integer not null,
  seq bigint not null check (seq > 0),
  time_ms bigint not null check (time_ms >= 0),
  hash text not null check (hash ~ '^[0-9a-f]{64}$'),
  primary key (market_id, seq)
);
create index price_heads_time on price_heads (time_ms desc);
