-- The client a verification code was sent to: the SHA-256 (hex) of a random token the sending request set
-- as a short-lived cookie. The template's code checks send the code alone; this finds the code they mean.
-- Null for codes sent before this migration.
alter table verification_codes
  add column client_hash text check (client_hash ~ '^[0-9a-f]{64}$');

create index verification_codes_client on verification_codes (client_hash, channel, created_at desc)
  where client_hash is not null;
