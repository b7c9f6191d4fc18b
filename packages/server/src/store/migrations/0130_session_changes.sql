-- Changes that end or alter what a session token resolves to, for the session caches of every server
-- process (auth/sessions.ts). A cache keeps a token's answer while it polls this table about once a second,
-- instead of asking for every cached session again each time its answer ages: one small query a second
-- whatever the number of active sessions. Rows are written by triggers, so that no writer of sessions or
-- users can forget them: a session revoked, re-timed, moved or deleted names its token hash; a user whose
-- sign-in fields (account, e-mail, phone, extension code, seller flag, real-name review) changed, or who was
-- deleted, names the user (token_hash null: every session of that user). Rows older than an hour are deleted
-- by the pollers.
create table session_changes (
  seq bigserial primary key,
  token_hash text,
  user_id integer not null,
  changed_at timestamptz not null default now()
);

create index session_changes_changed_at_idx on session_changes (changed_at);

-- The function keeps the schema it was created in, so that a writer with another search_path (an operator's
-- psql session) still finds session_changes.
create function note_session_change() returns trigger language plpgsql set search_path from current as $$
begin
  if tg_table_name = 'sessions' then
    insert into session_changes (token_hash, user_id) values (old.token_hash, old.user_id);
  else
    insert into session_changes (token_hash, user_id) values (null, old.id);
  end if;
  return null;
end
$$;

create trigger sessions_changed after update on sessions for each row
  when (old.revoked_at is distinct from new.revoked_at
     or old.expires_at is distinct from new.expires_at
     or old.kind is distinct from new.kind
     or old.user_id is distinct from new.user_id
     or old.token_hash is distinct from new.token_hash)
  execute function note_session_change();

create trigger sessions_deleted after delete on sessions for each row
  execute function note_session_change();

create trigger users_changed after update on users for each row
  when (old.account is distinct from new.account
     or old.email is distinct from new.email
     or old.phone is distinct from new.phone
     or old.extension_code is distinct from new.extension_code
     or old.is_seller is distinct from new.is_seller
     or old.review_status is distinct from new.review_status
     or old.id is distinct from new.id)
  execute function note_session_change();

create trigger users_deleted after delete on users for each row
  execute function note_session_change();
