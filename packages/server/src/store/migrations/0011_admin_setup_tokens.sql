-- One-time set-up links: while no administrator exists, each server start issues a random token (only its
-- SHA-256 is kept) that lets whoever holds the link create the first administrator. A token is used once
-- and expires; creating the first administrator by any means ends them all.
create table admin_setup_tokens (
  token_hash text primary key,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
