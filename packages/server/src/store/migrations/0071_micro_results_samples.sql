-- A settled order's open and end samples are rows of the price record (price_samples, kept as long as
-- proofs are offered, docs/price-record.md): micro_results keeps only their seqs, and reads join the
-- samples by (market, seq) for their time, mark, staleness and hash. Ten columns fewer, two of them 64-hex
-- hashes, makes the 50,000 rows of one settling second about a third of the bytes to write.
alter table micro_results
  drop column open_time_ms,
  drop column open_mark_ticks,
  drop column open_stale,
  drop column open_hash,
  drop column end_time_ms,
  drop column end_mark_ticks,
  drop column end_stale,
  drop column end_hash;
