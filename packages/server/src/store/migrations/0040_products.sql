-- Token sales, cloud mining and defi staking (docs/products.md): projections of the products area's events,
-- rebuildable from the journal, insert-only (a row per event), read by the product calls and the back
-- office. The products themselves, their terms and the running holdings' accrued amounts live in the engine;
-- these tables keep the history the engine forgets or never keeps per row:
-- - product_changes: every creation, edit, opening and closing with the terms in force afterwards;
-- - product_purchases: every purchase (ico: tokens bought; miner: a rent; defi: a stake);
-- - product_accruals: one row per product and accrued day (holdings credited, earnings, the amount per unit);
-- - product_rates: each miner rate the operator recorded (the last recording of a day is the one in force);
-- - product_extractions: miner earnings moved into the miner wallet;
-- - product_stake_ends: stakes that matured or were left early.
-- Amounts are numeric(40, 0) minor units; days are UTC day numbers; times milliseconds since the epoch.
create table product_changes (
  seq bigint not null,
  product_id integer not null,
  kind text not null check (kind in ('ico', 'miner', 'defi')),
  change text not null check (change in ('created', 'edited', 'open', 'closed')),
  terms jsonb,
  details jsonb,
  reserve numeric(40, 0),
  time_ms bigint not null,
  primary key (product_id, seq)
);

create table product_purchases (
  holding_id bigint primary key,
  product_id integer not null,
  kind text not null check (kind in ('ico', 'miner', 'defi')),
  user_id integer not null,
  units numeric(40, 0) not null check (units > 0),
  paid numeric(40, 0) not null,
  fee numeric(40, 0) not null,
  principal numeric(40, 0) not null,
  daily numeric(40, 0) not null,
  start_day integer not null,
  days integer not null,
  created_ms bigint not null,
  created_seq bigint not null
);
create index product_purchases_user on product_purchases (user_id, product_id, holding_id desc);
create index product_purchases_product on product_purchases (product_id, holding_id desc);

create table product_accruals (
  product_id integer not null,
  day integer not null,
  holdings integer not null,
  earnings numeric(40, 0) not null,
  per_unit numeric(40, 0),
  released numeric(40, 0) not null,
  time_ms bigint not null,
  seq bigint not null,
  primary key (product_id, day)
);

create table product_rates (
  product_id integer not null,
  day integer not null,
  per_unit numeric(40, 0) not null,
  time_ms bigint not null,
  seq bigint not null,
  primary key (product_id, day, seq)
);

create table product_extractions (
  seq bigint not null,
  holding_id bigint not null,
  product_id integer not null,
  user_id integer not null,
  amount numeric(40, 0) not null check (amount > 0),
  time_ms bigint not null,
  primary key (holding_id, seq)
);

create table product_stake_ends (
  holding_id bigint primary key,
  product_id integer not null,
  user_id integer not null,
  how text not null check (how in ('matured', 'exited')),
  principal numeric(40, 0) not null,
  earnings numeric(40, 0) not null,
  forfeited numeric(40, 0) not null,
  time_ms bigint not null,
  seq bigint not null
);
create index product_stake_ends_user on product_stake_ends (user_id, holding_id desc);
