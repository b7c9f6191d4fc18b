-- The transparency log (docs/transparency.md). log_leaves, log_nodes and log_checkpoints are a projection of
-- the engine's logAppended and logCheckpoint events (rebuildable from the journal); log_cosignatures are
-- witnesses' cosignatures the exchange accepted (POST /api/log/cosignature), and log_key the log's Ed25519
-- signing key, its private half sealed with the data folder's secret box like the other server secrets.
--
-- Hashes are 64 lowercase hex characters. log_nodes holds every perfect subtree of the tree once it is
-- complete: level L, index i covers leaves [i * 2^L, (i + 1) * 2^L); level 0 is the leaf hash.
create table log_leaves (
  idx bigint primary key check (idx >= 0),
  kind text not null check (kind in ('prices', 'liabilities')),
  entry text not null,
  leaf_hash text not null check (leaf_hash ~ '^[0-9a-f]{64}$'),
  -- The entry's "time" line (a prices batch's command time, a liabilities capture's time): how the leaf
  -- holding a price sample is found (GET /api/log/sample).
  time_ms bigint not null check (time_ms >= 0)
);
create index log_leaves_time on log_leaves (time_ms);

create table log_nodes (
  level integer not null check (level >= 0 and level < 64),
  idx bigint not null check (idx >= 0),
  hash text not null check (hash ~ '^[0-9a-f]{64}$'),
  primary key (level, idx)
);

-- A checkpoint's note is signed when it is projected (the log key's signature line, no cosignatures).
create table log_checkpoints (
  size bigint primary key check (size >= 0),
  root text not null check (root ~ '^[0-9a-f]{64}$'),
  time_ms bigint not null check (time_ms >= 0),
  note text not null
);

-- witness: the witness's verifier key text; line: its cosignature line ("— <name> <base64>\n").
create table log_cosignatures (
  size bigint not null,
  witness text not null,
  line text not null,
  received_at timestamptz not null default now(),
  primary key (size, witness)
);

-- One row: the log's key (public key raw, base64; private key seed sealed).
create table log_key (
  id smallint primary key check (id = 1),
  public_key text not null,
  private_key_sealed text not null,
  created_at timestamptz not null default now()
);
