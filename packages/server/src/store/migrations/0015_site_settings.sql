-- Site-wide settings an administrator changes in the back office while the exchange runs, one row per
-- setting that was ever set (a missing row means not set). Today: the customer-service link that
-- GET /api/custorm answers. The audit log keeps who changed what.
create table site_settings (
  key text primary key check (key ~ '^[a-z][a-z0-9_.]{0,63}$'),
  value text not null check (length(value) <= 500),
  updated_at timestamptz not null default now()
);
