// Feedback after a completed order (docs/p2p.md, "Feedback"): each party rates the other once, positive or
// negative, with an optional comment; a merchant's statistics show the share of positive ratings it received.
// Only the order's two parties read or write an order's feedback, and only once it completed.
import type { P2pFeedback, P2pOrderFeedback } from '@fairex/shared';
import { AppError } from '../http/app-error.ts';
import type { OrderRow } from './order-rows.ts';
import { statusOf } from './order-rows.ts';
import type { P2pOrders } from './orders.ts';
import type { P2pDeps } from './part.ts';
import { P2pPart } from './part.ts';

type FeedbackRow = { from_user: number; positive: boolean; comment: string; created_ms: string };

function feedbackOf(row: FeedbackRow | undefined): P2pFeedback | null {
  if (row === undefined) return null;
  return {
    rating: row.positive ? 'positive' : 'negative',
    comment: row.comment,
    created_time: Number(row.created_ms),
  };
}

export class P2pFeedbackPart extends P2pPart {
  private readonly orders: P2pOrders;

  constructor(deps: P2pDeps, parts: { orders: P2pOrders }) {
    super(deps);
    this.orders = parts.orders;
  }

  async ofOrder(userId: number, orderId: number): Promise<P2pOrderFeedback> {
    return this.feedbackOf(userId, await this.orders.partyRow(userId, orderId));
  }

  private async feedbackOf(userId: number, row: OrderRow): Promise<P2pOrderFeedback> {
    const { rows } = await this.db.query<FeedbackRow>(
      `select from_user, positive, comment, created_ms::text from p2p_feedback where order_id = $1`,
      [row.order_id],
    );
    return {
      can_rate: statusOf(row) === 'completed',
      mine: feedbackOf(rows.find((item) => item.from_user === userId)),
      theirs: feedbackOf(rows.find((item) => item.from_user !== userId)),
    };
  }

  async leave(
    userId: number,
    input: { id: number; rating: 'positive' | 'negative'; comment?: string | undefined },
  ): Promise<P2pOrderFeedback> {
    const row = await this.orders.partyRow(userId, input.id);
    if (statusOf(row) !== 'completed') throw new AppError('p2p.feedback_not_completed');
    const other = row.buyer_id === userId ? row.seller_id : row.buyer_id;
    const { rows } = await this.db.query(
      `insert into p2p_feedback (order_id, from_user, to_user, positive, comment, created_ms)
       values ($1, $2, $3, $4, $5, $6) on conflict (order_id, from_user) do nothing returning 1`,
      [input.id, userId, other, input.rating === 'positive', input.comment ?? '', this.now()],
    );
    if (rows.length === 0) throw new AppError('p2p.feedback_given');
    return this.feedbackOf(userId, row);
  }
}
