-- Demo accounts (DEMO=on: the P2P demo merchant of a fresh exchange) are flagged, so that every public
-- figure leaves them out and every screen that shows them can say "demo". A real account is never one.
alter table users add column is_demo boolean not null default false;

-- The demo merchant of earlier versions (created with a backdated age and funded by a deposit that never
-- happened) is a demo account too.
update users set is_demo = true where account = 'p2p-demo-merchant@fairex.invalid';
