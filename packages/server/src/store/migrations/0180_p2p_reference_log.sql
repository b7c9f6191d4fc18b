-- When each P2P reference price was set (issue 45): a floating ad follows the reference, and a trader must see
-- how old it is. One row per journaled p2pReferenceSet, insert-only like the other P2P projections; the
-- config reply names the latest row's time per asset and fiat.
create table p2p_reference_log (
  seq bigint not null,
  currency_id integer not null,
  fiat text not null,
  price_cents bigint not null,
  time_ms bigint not null,
  primary key (currency_id, fiat, seq)
);
