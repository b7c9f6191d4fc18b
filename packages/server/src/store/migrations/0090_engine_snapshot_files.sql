-- Snapshots kept in files (engine-runner/snapshot-files.ts): on the embedded store the replica's worker
-- thread writes each snapshot to DATA_DIR/snapshots/snapshot-<seq>-<state hash>.json, flushed to the disk,
-- and the row here only describes it (its body empty, no parts). Writing tens of megabytes of text into
-- PGlite, which runs on the server's event loop, stalled every request for hundreds of milliseconds. Rows
-- with a null file keep their text in the row or in engine_snapshot_parts, as before.
alter table engine_snapshots add column file text;
