-- Proof of liabilities (docs/transparency.md, "Proof of liabilities").
--
-- liability_snapshots and liability_amounts are projections of the engine's liabilitiesCaptured,
-- liabilitiesPublished and logAppended (kind liabilities) events, rebuilt from the journal like the others.
-- Amounts are unsigned decimal integers of minor units and may reach 2^64 - 1, beyond bigint, so a row's
-- amounts (one per column, in column order) are decimal text joined by ','; totals likewise; identity is
-- compact JSON [[currency, users, exchange, outside], ...] with signed decimal text.
create table liability_snapshots (
  snapshot_id text primary key,
  seq bigint not null check (seq > 0),
  time_ms bigint not null check (time_ms >= 0),
  columns text not null,
  totals text not null,
  identity text not null,
  users integer not null check (users >= 0),
  -- Set when publishLiabilities has appended the entry to the log.
  log_index bigint check (log_index >= 0),
  root text check (root ~ '^[0-9a-f]{64}$'),
  leaves integer check (leaves >= 0),
  entry text
);
create index liability_snapshots_published on liability_snapshots (log_index) where log_index is not null;

create table liability_amounts (
  snapshot_id text not null,
  user_id bigint not null,
  amounts text not null,
  primary key (snapshot_id, user_id)
);

-- The built trees: written by the tree builder from the amounts above and the sealed liabilities secret
-- (not a projection: the salts and order come from the secret, which the journal does not hold; a
-- snapshot's rows are written in one transaction, and rebuilt from its amounts if they are missing).
-- Level 0 is the leaves; node idx of level L joins nodes 2 idx and 2 idx + 1 of level L - 1.
create table liability_leaves (
  snapshot_id text not null,
  position integer not null check (position >= 0),
  user_id bigint not null,
  salt text not null check (salt ~ '^[0-9a-f]{64}$'),
  amounts text not null,
  hash text not null check (hash ~ '^[0-9a-f]{64}$'),
  primary key (snapshot_id, position)
);
create unique index liability_leaves_user on liability_leaves (snapshot_id, user_id);

create table liability_nodes (
  snapshot_id text not null,
  level integer not null check (level > 0),
  idx integer not null check (idx >= 0),
  hash text not null check (hash ~ '^[0-9a-f]{64}$'),
  sums text not null,
  primary key (snapshot_id, level, idx)
);

-- The secret the salts and the leaf order are drawn from (HMAC-SHA-256 keys), sealed like the other server
-- secrets (api-keys/sealed-secrets.ts). One row, made at first use.
create table liability_secret (
  id integer primary key check (id = 1),
  sealed text not null
);
