-- API keys for bots (issue 21): a user's keys with a label, scopes and an IP allowlist. The secret is shown
-- once at creation and stored only encrypted (AES-256-GCM under a key kept in the data folder), since the
-- server needs it to check HMAC signatures. A revoked key stays listed but never authenticates again.
create table api_keys (
  id integer generated always as identity primary key,
  user_id integer not null references users (id) on delete cascade,
  -- The public key id the client sends in X-FX-KEY.
  key_id text not null unique check (key_id ~ '^fx_[0-9a-f]{32}$'),
  -- iv:tag:ciphertext, base64 each.
  secret_sealed text not null,
  label text not null check (length(label) between 1 and 64),
  scopes text[] not null check (scopes <@ array['read', 'trade', 'withdraw']::text[] and cardinality(scopes) >= 1),
  ip_allowlist text[] not null default '{}',
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);

create index api_keys_user_idx on api_keys (user_id, id);

-- Signatures seen inside the replay window: the same signed request is accepted once.
create table api_key_requests (
  key_id text not null,
  signature text not null,
  seen_ms bigint not null,
  primary key (key_id, signature)
);

create index api_key_requests_seen_idx on api_key_requests (seen_ms);
