-- The back office: the administrators' second factor, which sessions have passed it, and user freezes.
--
-- Administrators sign in with a password (admin_sessions, 0003) and then an authenticator code. The code
-- proves the session, not the administrator: a session is allowed to act only once a row for it exists in
-- admin_session_factors, so a stolen password alone opens nothing.

-- One authenticator (TOTP) secret per administrator. secret is set once enrolment is confirmed with a code;
-- pending_secret holds a secret shown during enrolment and not yet confirmed. last_step is the last 30-second
-- step a code was accepted for, so that the same code cannot be used twice.
create table admin_totp (
  admin_id integer primary key references admins (id) on delete cascade,
  secret text,
  pending_secret text,
  last_step integer,
  enrolled_at timestamptz,
  updated_at timestamptz not null default now(),
  check (secret is not null or pending_secret is not null)
);

-- Administrator sessions that passed the second factor.
create table admin_session_factors (
  token_hash text primary key references admin_sessions (token_hash) on delete cascade,
  verified_at timestamptz not null default now()
);

-- What an administrator has stopped a user from doing. A row exists only while something is frozen; the
-- audit log keeps the history. Trading covers placing orders (cancelling stays possible, so a frozen user can
-- still free their funds); withdrawals cover new requests and the approval of pending ones.
create table user_freezes (
  user_id integer primary key references users (id) on delete cascade,
  trading boolean not null default false,
  withdrawals boolean not null default false,
  reason text not null check (length(reason) between 1 and 500),
  updated_by integer not null references admins (id),
  updated_at timestamptz not null default now(),
  check (trading or withdrawals)
);

-- The audit log is read newest first and filtered by action or target.
create index audit_log_action_idx on audit_log (action, id desc);
create index audit_log_target_idx on audit_log (target_type, target_id, id desc);
