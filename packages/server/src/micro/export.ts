// The signed-in user's own seconds orders as CSV (GET /api/microtrade/export; docs/micro.md, "Export"): one
// row per order, newest first, with what the proof of a settled order rests on - the rule version, the price
// it settled on, and the open and end samples' sequence numbers, times and hashes in the price record - so
// that each row can be checked against the public record (scripts/verify-micro.ts). Amounts and prices are
// the decimal text the lists show; times ISO 8601 in UTC.
import type { MicroExportReply } from '@fairex/shared';
import { MICRO_EXPORT_LIMIT } from '@fairex/shared';
import type { Queryable } from '../store/index.ts';
import type { MicroOrderRow, ViewContext } from './views.ts';
import { MICRO_ORDER_COLUMNS, MICRO_ORDER_FROM, orderView, proofSample, settlesOnIndex } from './views.ts';

export const MICRO_EXPORT_HEADER = [
  'order_id',
  'pair',
  'direction',
  'seconds',
  'currency',
  'stake',
  'fee',
  'fee_refund',
  'profit_ratio_percent',
  'accepted_at',
  'expiry_at',
  'status',
  'outcome',
  'void_reason',
  'profit',
  'open_price',
  'end_price',
  'rule_version',
  'settles_on',
  'max_sample_age_ms',
  'open_seq',
  'open_sample_at',
  'open_stale',
  'open_hash',
  'end_seq',
  'end_sample_at',
  'end_stale',
  'end_hash',
] as const;

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function isoTime(ms: number | null): string {
  return ms === null ? '' : new Date(ms).toISOString();
}

export function exportRow(context: ViewContext, row: MicroOrderRow): string[] {
  const view = orderView(context, row);
  const closed = view.status === 3;
  const open = closed ? proofSample(context.engine, row, 'open') : null;
  const end = closed ? proofSample(context.engine, row, 'end') : null;
  return [
    String(view.id),
    view.symbol_name,
    view.type === 1 ? 'up' : 'down',
    String(view.seconds),
    view.currency_name,
    view.number,
    view.fee,
    view.fee_refund,
    view.profit_ratio,
    isoTime(view.created_time),
    isoTime(view.expiry_time),
    closed ? 'closed' : 'running',
    view.outcome ?? '',
    view.void_reason ?? '',
    closed ? view.fact_profits : '',
    view.open_price,
    view.end_price,
    row.rule_version ?? '',
    closed ? (settlesOnIndex(row) ? 'index' : 'mark') : '',
    row.max_sample_age_ms === null ? '' : String(row.max_sample_age_ms),
    open === null ? '' : String(open.seq),
    isoTime(open?.time ?? null),
    open === null ? '' : String(open.stale),
    open?.hash ?? '',
    end === null ? '' : String(end.seq),
    isoTime(end?.time ?? null),
    end === null ? '' : String(end.stale),
    end?.hash ?? '',
  ];
}

/** The user's orders (only theirs), newest first, at most MICRO_EXPORT_LIMIT. */
export async function exportMicroOrders(
  db: Queryable,
  context: ViewContext,
  userId: number,
  options: { marketId?: number },
): Promise<MicroExportReply> {
  const params: unknown[] = [userId];
  const conditions = ['o.user_id = $1'];
  if (options.marketId !== undefined) {
    params.push(options.marketId);
    conditions.push(`o.market_id = $${params.length}`);
  }
  const { rows } = await db.query<MicroOrderRow>(
    `select ${MICRO_ORDER_COLUMNS} from ${MICRO_ORDER_FROM} where ${conditions.join(' and ')}
      order by o.order_id desc limit ${MICRO_EXPORT_LIMIT + 1}`,
    params,
  );
  const shown = rows.slice(0, MICRO_EXPORT_LIMIT);
  const lines = [
    MICRO_EXPORT_HEADER.join(','),
    ...shown.map((row) => exportRow(context, row).map(csvField).join(',')),
  ];
  const day = new Date(context.nowMs).toISOString().slice(0, 10);
  return {
    filename: `fairex-seconds-orders-${day}.csv`,
    csv: `${lines.join('\r\n')}\r\n`,
    rows: shown.length,
    truncated: rows.length > MICRO_EXPORT_LIMIT,
  };
}
