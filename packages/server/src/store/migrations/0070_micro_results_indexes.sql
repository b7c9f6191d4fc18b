-- micro_results is written 50,000 rows at a time when a second's contracts settle; each index is paid per
-- row. Lists and proofs reach a result by its order (the primary key, from micro_orders' user index), so the
-- user index is never used. The settled_ms index stays: the back office lists the newest settlements first
-- and the public daily figures read a range of it (its keys only grow, so each batch appends at its end).
drop index if exists micro_results_user;
