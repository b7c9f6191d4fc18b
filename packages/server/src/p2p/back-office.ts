// The P2P back office: merchant applications and their review or revocation, ads (and pausing one), orders
// with their evidence, and an arbiter's decision on an appeal; every change is audited.
import type {
  P2pAd,
  P2pAdminApplication,
  P2pAdminOrder,
  P2pEvidenceEntry,
  P2pOrder,
  P2pOrderStatus,
  Paged,
} from '@fairex/shared';
import { P2P_ADMIN_PAGE_SIZE, formatDecimal, pageOfList, paged } from '@fairex/shared';
import { uploadIdFrom } from '../accounts/uploads.ts';
import type { StoredUpload } from '../accounts/uploads.ts';
import type { Actor } from '../admin/audit-changes.ts';
import { recordChange } from '../admin/audit-changes.ts';
import { AppError } from '../http/app-error.ts';
import { p2pImageAddress } from './format.ts';
import { ORDER_SELECT } from './order-rows.ts';
import type { OrderRow } from './order-rows.ts';
import type { P2pDeps } from './part.ts';
import type { P2pAds } from './ads.ts';
import type { P2pMerchants } from './merchants.ts';
import type { P2pOrders } from './orders.ts';
import type { P2pOrderRoom } from './order-room.ts';
import { P2pPart } from './part.ts';

export class P2pBackOffice extends P2pPart {
  private readonly ads: P2pAds;
  private readonly merchants: P2pMerchants;
  private readonly orders: P2pOrders;
  private readonly room: P2pOrderRoom;

  constructor(
    deps: P2pDeps,
    parts: { ads: P2pAds; merchants: P2pMerchants; orders: P2pOrders; room: P2pOrderRoom },
  ) {
    super(deps);
    this.ads = parts.ads;
    this.merchants = parts.merchants;
    this.orders = parts.orders;
    this.room = parts.room;
  }

  async applications(input: {
    status?: 'pending' | 'approved' | 'rejected' | undefined;
    page?: number | undefined;
  }): Promise<Paged<P2pAdminApplication>> {
    const page = input.page ?? 1;
    const { rows } = await this.db.query<{
      id: number;
      user_id: number;
      account: string;
      nickname: string;
      note: string;
      status: 'pending' | 'approved' | 'rejected';
      reason: string;
      created_ms: string;
      reviewed_ms: string | null;
      reviewed_by: string | null;
      total: number;
    }>(
      `select a.id, a.user_id, u.account, a.nickname, a.note, a.status, a.reason, a.created_ms::text,
              a.reviewed_ms::text, ad.username as reviewed_by, count(*) over ()::int as total
         from p2p_applications a join users u on u.id = a.user_id
         left join admins ad on ad.id = a.reviewed_by
        where ($1::text is null or a.status = $1)
        order by a.id desc limit $2 offset $3`,
      [input.status ?? null, P2P_ADMIN_PAGE_SIZE, (page - 1) * P2P_ADMIN_PAGE_SIZE],
    );
    const data: P2pAdminApplication[] = [];
    for (const row of rows)
      data.push({
        id: row.id,
        user_id: row.user_id,
        account: row.account,
        nickname: row.nickname,
        note: row.note,
        status: row.status,
        reason: row.reason,
        requirements: await this.merchants.requirements(this.db, row.user_id),
        created_time: Number(row.created_ms),
        reviewed_time: row.reviewed_ms === null ? null : Number(row.reviewed_ms),
        reviewed_by: row.reviewed_by,
      });
    return paged(data, page, P2P_ADMIN_PAGE_SIZE, rows[0]?.total ?? 0);
  }

  async review(
    actor: Actor,
    input: {
      id: number;
      decision: 'approve' | 'reject';
      reason?: string | undefined;
      acceptor?: 0 | 1 | undefined;
    },
  ): Promise<void> {
    const { rows } = await this.db.query<{ user_id: number; status: string }>(
      'select user_id, status from p2p_applications where id = $1',
      [input.id],
    );
    const application = rows[0];
    if (application === undefined) throw new AppError('p2p.application_not_found');
    if (application.status !== 'pending') throw new AppError('p2p.already_reviewed');
    const approve = input.decision === 'approve';
    const acceptor = approve && input.acceptor === 1;
    // The engine first: the merchant exists there before any row says so (a retry re-applies the same flag).
    if (approve)
      await this.submit({ type: 'p2pSetMerchant', userId: application.user_id, approved: true, acceptor });
    await this.db.transaction(async (tx) => {
      await tx.query(
        `update p2p_applications set status = $2, reason = $3, acceptor = $4, reviewed_ms = $5, reviewed_by = $6
          where id = $1 and status = 'pending'`,
        [
          input.id,
          approve ? 'approved' : 'rejected',
          input.reason ?? '',
          acceptor,
          this.now(),
          actor.adminId,
        ],
      );
      if (approve) await tx.query('update users set is_seller = true where id = $1', [application.user_id]);
      await recordChange(tx, actor, {
        action: approve ? 'p2p.merchant_approved' : 'p2p.merchant_rejected',
        targetType: 'user',
        targetId: application.user_id,
        detail: { application: input.id, reason: input.reason ?? '', acceptor },
      });
    });
  }

  async revoke(actor: Actor, input: { user_id: number; reason: string }): Promise<void> {
    if (this.engine.p2p.merchant(input.user_id) === undefined) throw new AppError('p2p.not_merchant');
    await this.submit({ type: 'p2pSetMerchant', userId: input.user_id, approved: false, acceptor: false });
    await this.db.transaction(async (tx) => {
      await tx.query('update users set is_seller = false where id = $1', [input.user_id]);
      await recordChange(tx, actor, {
        action: 'p2p.merchant_revoked',
        targetType: 'user',
        targetId: input.user_id,
        detail: { reason: input.reason },
      });
    });
  }

  async adminAds(input: {
    status?: 'online' | 'paused' | 'closed' | undefined;
    user_id?: number | undefined;
    page?: number | undefined;
  }): Promise<Paged<P2pAd>> {
    const live =
      input.status === 'closed'
        ? []
        : await this.ads.viewsOfLive(
            this.engine.p2p
              .ads()
              .filter(
                (ad) =>
                  (input.status === undefined || ad.status === input.status) &&
                  (input.user_id === undefined || ad.userId === input.user_id),
              ),
          );
    const closed =
      input.status === undefined || input.status === 'closed'
        ? await this.ads.closedAds(input.user_id === undefined ? {} : { userId: input.user_id })
        : [];
    const all = [...live.reverse(), ...closed];
    const page = input.page ?? 1;
    return pageOfList(all, page, P2P_ADMIN_PAGE_SIZE);
  }

  async adminPauseAd(actor: Actor, input: { id: number; reason: string }): Promise<P2pAd> {
    if (this.engine.p2p.ad(input.id) === undefined) throw new AppError('p2p.ad_not_found');
    await this.submit({ type: 'p2pSetAdStatus', userId: 0, adId: input.id, status: 'paused' });
    await recordChange(this.db, actor, {
      action: 'p2p.ad_paused',
      targetType: 'p2p_ad',
      targetId: input.id,
      detail: { reason: input.reason },
    });
    return this.ads.adDetail(input.id);
  }

  async adminOrders(input: {
    status?: P2pOrderStatus | undefined;
    user_id?: number | undefined;
    page?: number | undefined;
  }): Promise<Paged<P2pAdminOrder>> {
    const page = input.page ?? 1;
    const statusCondition: Record<P2pOrderStatus, string> = {
      completed: `e.status = 'completed'`,
      cancelled: `e.status = 'cancelled'`,
      appealed: `e.status is null and exists (select 1 from p2p_order_steps a where a.order_id = o.order_id and a.status = 'appealed')`,
      paid: `e.status is null and exists (select 1 from p2p_order_steps a where a.order_id = o.order_id and a.status = 'paid')
             and not exists (select 1 from p2p_order_steps a where a.order_id = o.order_id and a.status = 'appealed')`,
      unpaid: `e.status is null and not exists (select 1 from p2p_order_steps a where a.order_id = o.order_id and a.status = 'paid')`,
    };
    const conditions = ['true'];
    if (input.status !== undefined) conditions.push(statusCondition[input.status]);
    if (input.user_id !== undefined) conditions.push('(o.buyer_id = $3 or o.seller_id = $3)');
    const where = `where ${conditions.join(' and ')}`;
    const params: unknown[] = [P2P_ADMIN_PAGE_SIZE, (page - 1) * P2P_ADMIN_PAGE_SIZE];
    if (input.user_id !== undefined) params.push(input.user_id);
    const { rows } = await this.db.query<OrderRow>(
      `${ORDER_SELECT} ${where} order by o.order_id desc limit $1 offset $2`,
      params,
    );
    const { rows: count } = await this.db.query<{ count: number }>(
      `select count(*)::int as count from p2p_orders o
         left join p2p_order_steps e on e.order_id = o.order_id and e.status in ('completed', 'cancelled')
        ${where.replaceAll('$3', '$1')}`,
      input.user_id === undefined ? [] : [input.user_id],
    );
    const data: P2pAdminOrder[] = [];
    for (const row of rows) data.push(await this.adminOrderOf(row, false));
    return paged(data, page, P2P_ADMIN_PAGE_SIZE, count[0]?.count ?? 0);
  }

  async adminOrder(orderId: number): Promise<P2pAdminOrder> {
    const row = await this.orders.orderRow(orderId);
    if (row === undefined) throw new AppError('p2p.order_not_found');
    return this.adminOrderOf(row, true);
  }

  private async adminOrderOf(row: OrderRow, withLog: boolean): Promise<P2pAdminOrder> {
    const view = (await this.orders.orderViews(null, [row]))[0] as P2pOrder;
    const { my_side: _side, unread: _unread, fee: _fee, ...rest } = view;
    const scale = this.scaleOf(row.currency_id);
    const orderId = Number(row.order_id);
    const { rows: appeals } = await this.db.query<{
      user_id: number;
      reason: string;
      description: string;
      evidence: string[];
      created_ms: string;
    }>(
      'select user_id, reason, description, evidence, created_ms::text from p2p_appeals where order_id = $1',
      [orderId],
    );
    const { rows: decisions } = await this.db.query<{
      side: 'buyer' | 'seller';
      reason: string;
      email: string | null;
      created_ms: string;
    }>(
      `select d.side, d.reason, a.username as email, d.created_ms::text from p2p_decisions d
         left join admins a on a.id = d.admin_id where d.order_id = $1`,
      [orderId],
    );
    const appeal = appeals[0];
    const decision = decisions[0];
    const log: P2pEvidenceEntry[] = [];
    if (withLog) {
      log.push({ time: view.created_time, kind: 'status', from: 0, text: 'created', image: null });
      const { rows: steps } = await this.db.query<{
        status: string;
        order_end: string | null;
        by_user: number;
        time_ms: string;
      }>('select status, order_end, by_user, time_ms::text from p2p_order_steps where order_id = $1', [
        orderId,
      ]);
      for (const step of steps)
        log.push({
          time: Number(step.time_ms),
          kind: 'status',
          from: step.by_user,
          text: step.order_end ?? step.status,
          image: null,
        });
      for (const message of await this.room.messageRows(orderId, 0))
        log.push({
          time: message.created_time,
          kind: message.image === null ? 'message' : 'image',
          from: message.from,
          text: message.text,
          image: message.image,
        });
      if (appeal !== undefined) {
        log.push({
          time: Number(appeal.created_ms),
          kind: 'appeal',
          from: appeal.user_id,
          text: `${appeal.reason}: ${appeal.description}`,
          image: null,
        });
        for (const id of appeal.evidence)
          log.push({
            time: Number(appeal.created_ms),
            kind: 'image',
            from: appeal.user_id,
            text: '',
            image: p2pImageAddress(id),
          });
      }
      if (decision !== undefined)
        log.push({
          time: Number(decision.created_ms),
          kind: 'decision',
          from: -1,
          text: `${decision.side}: ${decision.reason}`,
          image: null,
        });
      log.sort((a, b) => a.time - b.time);
    }
    return {
      ...rest,
      buyer_fee: formatDecimal(BigInt(row.buyer_fee), scale),
      seller_fee: formatDecimal(BigInt(row.seller_fee), scale),
      appeal:
        appeal === undefined
          ? null
          : {
              by: appeal.user_id,
              reason: appeal.reason,
              description: appeal.description,
              evidence: appeal.evidence.map(p2pImageAddress),
              created_time: Number(appeal.created_ms),
            },
      decision:
        decision === undefined
          ? null
          : {
              to: decision.side,
              reason: decision.reason,
              by: decision.email ?? '',
              time: Number(decision.created_ms),
            },
      evidence_log: log,
    };
  }

  /**
   * An image for the back office: one in any order's chat or appeal, or a payment method's QR code. Other
   * uploads (identity photos) are not served here; they have their own reviewer's route.
   */
  async adminImage(address: string): Promise<{ upload: StoredUpload; data: Buffer }> {
    const id = uploadIdFrom(address);
    if (id === null) throw new AppError('upload.not_found');
    const { rows } = await this.db.query(
      `select 1 from p2p_messages where upload_id = $1
       union all select 1 from p2p_appeals where $1 = any(evidence)
       union all select 1 from p2p_payment_methods where qr_upload_id = $1
       limit 1`,
      [id],
    );
    if (rows.length === 0) throw new AppError('upload.not_found');
    return this.room.image(null, id);
  }

  /** The arbiter's decision (second factor checked by the route), recorded, then executed, audited. */
  async decide(
    actor: Actor,
    input: { id: number; to: 'buyer' | 'seller'; reason: string },
  ): Promise<P2pAdminOrder> {
    const order = this.engine.p2p.order(input.id);
    if (order === undefined || order.status !== 'appealed') throw new AppError('p2p.wrong_state');
    // The engine decides first (it refuses an order no longer in appeal); the reason is then kept with it.
    await this.submit({ type: 'p2pDecide', orderId: input.id, to: input.to, arbiterId: actor.adminId });
    await this.db.query(
      `insert into p2p_decisions (order_id, side, reason, admin_id, created_ms) values ($1, $2, $3, $4, $5)
       on conflict (order_id) do nothing`,
      [input.id, input.to, input.reason, actor.adminId, this.now()],
    );
    await recordChange(this.db, actor, {
      action: 'p2p.order_decided',
      targetType: 'p2p_order',
      targetId: input.id,
      detail: { to: input.to, reason: input.reason },
    });
    return this.adminOrder(input.id);
  }
}
