// P2P merchants: what a user must meet to apply (approved real name, account age, completed orders), the
// application and its status, nicknames, and each merchant's statistics from real orders.
import type { P2pMerchantStats, P2pMerchantStatus, P2pRequirement } from '@fairex/shared';
import { formatDecimal } from '@fairex/shared';
import { AppError } from '../http/app-error.ts';
import type { Queryable } from '../store/index.ts';
import { DAY_MS, maskAccount } from './format.ts';
import { P2pPart } from './part.ts';

export class P2pMerchants extends P2pPart {
  async approvedRealName(db: Queryable, userId: number): Promise<string | null> {
    const { rows } = await db.query<{ name: string }>(
      `select name from real_name_submissions where user_id = $1 and status = 'approved' order by id desc limit 1`,
      [userId],
    );
    return rows[0]?.name ?? null;
  }

  async requirements(db: Queryable, userId: number): Promise<P2pRequirement[]> {
    const { rows } = await db.query<{ review_status: number; created_at: Date; is_demo: boolean }>(
      'select review_status, created_at, is_demo from users where id = $1',
      [userId],
    );
    const user = rows[0];
    if (user === undefined) throw new AppError('auth.login_required', {}, '999');
    const ageDays = Math.floor((this.now() - user.created_at.getTime()) / DAY_MS);
    const completed = await this.completedCount(db, userId);
    // A flagged demo account (DEMO=on) is created at the first start with no orders: the age and completed
    // orders rules are waived for it, explicitly (docs/p2p.md, "Demo merchant"); a real account never is one.
    const { minAccountAgeDays, minCompletedTrades } = user.is_demo
      ? { minAccountAgeDays: 0, minCompletedTrades: 0 }
      : this.deps.thresholds;
    return [
      { key: 'realName', needed: 1, have: user.review_status === 2 ? 1 : 0, met: user.review_status === 2 },
      { key: 'accountAge', needed: minAccountAgeDays, have: ageDays, met: ageDays >= minAccountAgeDays },
      {
        key: 'completedTrades',
        needed: minCompletedTrades,
        have: completed,
        met: completed >= minCompletedTrades,
      },
    ];
  }

  private async completedCount(db: Queryable, userId: number): Promise<number> {
    const { rows } = await db.query<{ count: number }>(
      `select count(*)::int as count from p2p_orders o
         join p2p_order_steps s on s.order_id = o.order_id and s.status = 'completed'
        where o.buyer_id = $1 or o.seller_id = $1`,
      [userId],
    );
    return rows[0]?.count ?? 0;
  }

  async merchantStatus(userId: number): Promise<P2pMerchantStatus> {
    const requirements = await this.requirements(this.db, userId);
    const { rows } = await this.db.query<{
      id: number;
      nickname: string;
      status: 'pending' | 'approved' | 'rejected';
      reason: string;
      created_ms: string;
      reviewed_ms: string | null;
    }>(
      `select id, nickname, status, reason, created_ms::text, reviewed_ms::text from p2p_applications
        where user_id = $1 order by id desc limit 1`,
      [userId],
    );
    const application = rows[0];
    const isSeller = this.engine.p2p.merchant(userId) !== undefined;
    return {
      is_seller: isSeller ? 1 : 0,
      application:
        application === undefined
          ? null
          : {
              id: application.id,
              nickname: application.nickname,
              status: application.status,
              reason: application.reason,
              created_time: Number(application.created_ms),
              reviewed_time: application.reviewed_ms === null ? null : Number(application.reviewed_ms),
            },
      requirements,
      can_apply: !isSeller && application?.status !== 'pending' && requirements.every((r) => r.met),
    };
  }

  async apply(
    userId: number,
    input: { nickname: string; note?: string | undefined },
  ): Promise<P2pMerchantStatus> {
    const status = await this.merchantStatus(userId);
    if (status.is_seller === 1) throw new AppError('p2p.already_merchant');
    if (status.application?.status === 'pending') throw new AppError('p2p.application_pending');
    if (!status.requirements.every((r) => r.met)) throw new AppError('p2p.requirements_not_met');
    try {
      await this.db.query(
        `insert into p2p_applications (user_id, nickname, note, created_ms) values ($1, $2, $3, $4)`,
        [userId, input.nickname, input.note ?? '', this.now()],
      );
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new AppError('p2p.application_pending');
      throw error;
    }
    return this.merchantStatus(userId);
  }

  async nicknames(userIds: readonly number[]): Promise<Map<number, string>> {
    const names = new Map<number, string>();
    if (userIds.length === 0) return names;
    const { rows } = await this.db.query<{ id: number; account: string; nickname: string | null }>(
      `select u.id, u.account,
              (select a.nickname from p2p_applications a where a.user_id = u.id and a.status = 'approved'
                order by a.id desc limit 1) as nickname
         from users u where u.id = any($1::int[])`,
      [[...new Set(userIds)]],
    );
    for (const row of rows) names.set(row.id, row.nickname ?? maskAccount(row.account));
    return names;
  }

  async merchantStats(userId: number): Promise<P2pMerchantStats> {
    return (await this.statsOf([userId])).get(userId) as P2pMerchantStats;
  }

  /**
   * Completed orders, 30-day completion rate and average release time, from the recorded orders. The rate is
   * completed / (completed + the merchant's own failures): as the buyer it cancelled, let the payment window
   * lapse or lost the appeal; as an acceptor it rejected the deal (docs/p2p.md, Merchant statistics).
   */
  async statsOf(userIds: readonly number[]): Promise<Map<number, P2pMerchantStats>> {
    const since = this.now() - 30 * DAY_MS;
    const unique = [...new Set(userIds)];
    const { rows } = await this.db.query<{
      user_id: number;
      completed: number;
      completed_30d: number;
      cancelled_30d: number;
      failed_30d: number;
      release_ms: string | null;
      feedback_count: number;
      feedback_positive: number;
      demo: boolean | null;
    }>(
      `select u.id as user_id,
              (select is_demo from users where users.id = u.id) as demo,
              (select count(*)::int from p2p_orders o join p2p_order_steps s on s.order_id = o.order_id
                 and s.status = 'completed' where o.maker_id = u.id) as completed,
              (select count(*)::int from p2p_orders o join p2p_order_steps s on s.order_id = o.order_id
                 and s.status = 'completed' where o.maker_id = u.id and o.created_ms >= $2) as completed_30d,
              (select count(*)::int from p2p_orders o join p2p_order_steps s on s.order_id = o.order_id
                 and s.status = 'cancelled' where o.maker_id = u.id and o.created_ms >= $2) as cancelled_30d,
              (select count(*)::int from p2p_orders o join p2p_order_steps s on s.order_id = o.order_id
                 and s.status = 'cancelled' where o.maker_id = u.id and o.created_ms >= $2
                 and (s.order_end = 'acceptorRejected' or (o.buyer_id = u.id
                      and s.order_end in ('buyerCancelled', 'timedOut', 'arbiterToSeller')))) as failed_30d,
              (select avg(s.time_ms - p.time_ms)::bigint::text from p2p_orders o
                 join p2p_order_steps s on s.order_id = o.order_id and s.status = 'completed' and s.order_end = 'released'
                 join p2p_order_steps p on p.order_id = o.order_id and p.status = 'paid'
                where o.seller_id = u.id and o.created_ms >= $2) as release_ms,
              (select count(*)::int from p2p_feedback f where f.to_user = u.id) as feedback_count,
              (select count(*)::int from p2p_feedback f where f.to_user = u.id and f.positive) as feedback_positive
         from unnest($1::int[]) as u(id)`,
      [unique, since],
    );
    const names = await this.nicknames(unique);
    const stats = new Map<number, P2pMerchantStats>();
    for (const row of rows) {
      // Only the merchant's own failures count against it; a counterparty's cancellation or lapse does not.
      const counted = row.completed_30d + row.failed_30d;
      stats.set(row.user_id, {
        user_id: row.user_id,
        nickname: names.get(row.user_id) ?? '',
        completed: row.completed,
        completion_rate_30d:
          counted === 0 ? null : formatDecimal((BigInt(row.completed_30d) * 10_000n) / BigInt(counted), 2),
        avg_release_seconds: row.release_ms === null ? null : Math.round(Number(row.release_ms) / 1000),
        orders_30d: row.completed_30d + row.cancelled_30d,
        feedback_count: row.feedback_count,
        positive_rate:
          row.feedback_count === 0
            ? null
            : formatDecimal((BigInt(row.feedback_positive) * 10_000n) / BigInt(row.feedback_count), 2),
        demo: row.demo === true,
      });
    }
    return stats;
  }
}
