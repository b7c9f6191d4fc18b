// The micro_orders projection (migration 0018): rows derived from the engine's micro events, written in the
// batch's transaction like the other projections, so an order is listed the moment its submit is answered.
import type { Command, EngineEvent } from '@fairex/engine';
import type { Queryable } from '../store/index.ts';
import type { CommittedEntry } from '../engine-runner/types.ts';

type Entry = CommittedEntry<Command, EngineEvent>;

/** Writes the micro rows of a batch: new orders, then open samples, then settlements, one statement each. */
export async function writeMicroRows(tx: Queryable, entries: readonly Entry[]): Promise<void> {
  const placed: EngineEvent[] = [];
  const opened: EngineEvent[] = [];
  const settled: { event: EngineEvent; seq: number; timeMs: number }[] = [];
  const placedSeq: number[] = [];
  for (const { envelope, outcome } of entries) {
    if (outcome.code !== 0) continue;
    for (const event of outcome.events) {
      if (event.type === 'microOrderPlaced') {
        placed.push(event);
        placedSeq.push(envelope.seq);
      } else if (event.type === 'microOrderOpened') opened.push(event);
      else if (event.type === 'microOrderSettled')
        settled.push({ event, seq: envelope.seq, timeMs: envelope.timeMs });
    }
  }
  if (placed.length > 0) {
    const rows = placed.filter((e) => e.type === 'microOrderPlaced');
    await tx.query(
      `insert into micro_orders (order_id, user_id, market_id, currency_id, direction, seconds, profit_ratio_bp,
                                 stake, fee, accepted_ms, expiry_ms, created_seq)
       select * from unnest($1::bigint[], $2::int[], $3::int[], $4::int[], $5::smallint[], $6::int[], $7::int[],
                            $8::numeric[], $9::numeric[], $10::bigint[], $11::bigint[], $12::bigint[])`,
      [
        rows.map((e) => e.orderId),
        rows.map((e) => e.userId),
        rows.map((e) => e.marketId),
        rows.map((e) => e.currencyId),
        rows.map((e) => e.direction),
        rows.map((e) => e.seconds),
        rows.map((e) => e.profitRatioBp),
        rows.map((e) => e.stake.toString()),
        rows.map((e) => e.fee.toString()),
        rows.map((e) => e.acceptedMs),
        rows.map((e) => e.expiryMs),
        placedSeq,
      ],
    );
  }
  if (opened.length > 0) {
    const rows = opened.filter((e) => e.type === 'microOrderOpened');
    await tx.query(
      `update micro_orders m set open_seq = u.seq, open_time_ms = u.time_ms, open_mark_ticks = u.mark,
              open_stale = u.stale, open_hash = u.hash
         from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::boolean[], $6::text[])
              as u(order_id, seq, time_ms, mark, stale, hash)
        where m.order_id = u.order_id`,
      [
        rows.map((e) => e.orderId),
        rows.map((e) => e.open.seq),
        rows.map((e) => e.open.timeMs),
        rows.map((e) => e.open.markTicks),
        rows.map((e) => e.open.stale),
        rows.map((e) => e.open.hash),
      ],
    );
  }
  if (settled.length > 0) {
    const rows = settled.flatMap(({ event, seq, timeMs }) =>
      event.type === 'microOrderSettled' ? [{ e: event, seq, timeMs }] : [],
    );
    await tx.query(
      `update micro_orders m set status = 3, outcome = u.outcome, void_reason = u.void_reason,
              max_sample_age_ms = u.max_age, payout = u.payout, fee_refund = u.fee_refund,
              rule_version = u.rule_version,
              open_seq = u.open_seq, open_time_ms = u.open_time_ms, open_mark_ticks = u.open_mark,
              open_stale = u.open_stale, open_hash = u.open_hash,
              end_seq = u.end_seq, end_time_ms = u.end_time_ms, end_mark_ticks = u.end_mark,
              end_stale = u.end_stale, end_hash = u.end_hash,
              settled_seq = u.settled_seq, settled_ms = u.settled_ms
         from unnest($1::bigint[], $2::text[], $3::text[], $4::int[], $5::numeric[], $6::numeric[], $7::text[],
                     $8::bigint[], $9::bigint[], $10::bigint[], $11::boolean[], $12::text[],
                     $13::bigint[], $14::bigint[], $15::bigint[], $16::boolean[], $17::text[],
                     $18::bigint[], $19::bigint[])
              as u(order_id, outcome, void_reason, max_age, payout, fee_refund, rule_version,
                   open_seq, open_time_ms, open_mark, open_stale, open_hash,
                   end_seq, end_time_ms, end_mark, end_stale, end_hash, settled_seq, settled_ms)
        where m.order_id = u.order_id`,
      [
        rows.map(({ e }) => e.orderId),
        rows.map(({ e }) => e.outcome),
        rows.map(({ e }) => e.voidReason),
        rows.map(({ e }) => e.maxSampleAgeMs),
        rows.map(({ e }) => e.payout.toString()),
        rows.map(({ e }) => e.feeRefund.toString()),
        rows.map(({ e }) => e.ruleVersion),
        rows.map(({ e }) => e.open?.seq ?? null),
        rows.map(({ e }) => e.open?.timeMs ?? null),
        rows.map(({ e }) => e.open?.markTicks ?? null),
        rows.map(({ e }) => e.open?.stale ?? null),
        rows.map(({ e }) => e.open?.hash ?? null),
        rows.map(({ e }) => e.end?.seq ?? null),
        rows.map(({ e }) => e.end?.timeMs ?? null),
        rows.map(({ e }) => e.end?.markTicks ?? null),
        rows.map(({ e }) => e.end?.stale ?? null),
        rows.map(({ e }) => e.end?.hash ?? null),
        rows.map(({ seq }) => seq),
        rows.map(({ timeMs }) => timeMs),
      ],
    );
  }
}
