-- Journal-first commits (engine-runner/runner.ts): a batch's transaction writes the journal only, and the
-- projector stage writes the projections behind it, recording here, in its own transaction, the last seq
-- whose projections are written. Recovery re-projects every journaled command after it. One row.
-- Until now projections were written in the journal's own transaction, so they reach the journal's end.
create table engine_projection_progress (
  id smallint primary key check (id = 1),
  projected_seq bigint not null
);

insert into engine_projection_progress (id, projected_seq)
select 1, coalesce((select last_seq from engine_journal order by first_seq desc limit 1), 0);
