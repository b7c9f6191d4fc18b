-- A P2P release is confirmed, without an authenticator, by a code of its own purpose (issue 45): the mail
-- names a P2P release, not a withdrawal, and a withdrawal code does not release coins, nor the reverse.
alter table verification_codes drop constraint if exists verification_codes_purpose_check;
alter table verification_codes
  add constraint verification_codes_purpose_check
  check (purpose in ('register', 'forget', 'bind_email', 'bind_mobile', 'withdraw', 'p2p_release'));
