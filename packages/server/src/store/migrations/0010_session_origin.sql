-- Where each session began: the client address and the browser's user agent of the log-in (or of the
-- password change that issued it), for the user's log-in history in the back office. Null for sessions
-- made before this migration and for sessions not made by a request.
alter table sessions
  add column ip text,
  add column user_agent text;
