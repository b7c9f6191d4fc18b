-- Each user's uploads of the current day (UTC): one row per user, taken by a conditional upsert before an
-- image is processed, so that parallel uploads cannot pass the daily limit. Seeded with today's uploads.
create table upload_quota (
  user_id integer primary key references users (id) on delete cascade,
  day date not null,
  used integer not null check (used >= 0)
);

insert into upload_quota (user_id, day, used)
select user_id, (now() at time zone 'UTC')::date, count(*)
  from uploads
 where created_at >= (now() at time zone 'UTC')::date at time zone 'UTC'
 group by user_id;

-- Uploads are stored re-encoded: a file of at most 4 MB may come out somewhat larger.
alter table uploads drop constraint uploads_size_bytes_check;
alter table uploads add constraint uploads_size_bytes_check check (size_bytes between 1 and 16777216);
