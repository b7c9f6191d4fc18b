-- Snapshots written in parts (engine-runner/journal.ts, writeSnapshotInParts): a snapshot of a large state is
-- tens of megabytes of text, and one INSERT of it held the embedded store's thread, which is the server's
-- event loop, for seconds. The parts are written one short statement at a time; the engine_snapshots row
-- comes last and names how many parts it has (its own body then empty), so a snapshot exists only once all
-- of it does. Parts whose snapshot row is gone (pruned, or a write cut short) are deleted with the pruning.
alter table engine_snapshots add column parts integer not null default 0;

create table engine_snapshot_parts (
  seq bigint not null,
  part integer not null,
  body text not null,
  primary key (seq, part)
);
