// P2P orders: placing one on an ad, reading one (its two parties only) or a page of one's own, and each step
// (paid, release with the second factor, cancel, appeal) as an engine command; the daily cancellation counters.
import type { P2pAdView } from '@fairex/engine';
import { p2pAmountForFiat, p2pNextDayStart } from '@fairex/engine/calc';
import type {
  Language,
  P2pAppealReason,
  P2pCounters,
  P2pFiat,
  P2pOrder,
  P2pPaymentMethod,
  Paged,
} from '@fairex/shared';
import { P2P_APPEAL_REASONS, P2P_PAGE_SIZE, formatDecimal, paged, tryParseDecimal } from '@fairex/shared';
import { findUpload, uploadIdFrom } from '../accounts/uploads.ts';
import { submitOrRefuse } from '../engine-runner/submit.ts';
import { AppError } from '../http/app-error.ts';
import type { SecondFactorCodes } from '../wallets/second-factor.ts';
import { p2pRefusal } from './refusals.ts';
import { cents, parseFiat, timeText } from './format.ts';
import { ORDER_SELECT, statusOf, usedMethodId } from './order-rows.ts';
import type { OrderRow } from './order-rows.ts';
import { methodView } from './payment-methods.ts';
import { P2pListingPart } from './listing-part.ts';

export class P2pOrders extends P2pListingPart {
  async createOrder(
    userId: number,
    input: {
      ad_id: number;
      fiat_amount?: string | undefined;
      amount?: string | undefined;
      method_id?: number | undefined;
    },
  ): Promise<P2pOrder> {
    const ad = this.engine.p2p.ad(input.ad_id);
    if (ad === undefined) throw new AppError('p2p.ad_not_found');
    const scale = this.scaleOf(ad.currencyId);
    if ((input.fiat_amount === undefined) === (input.amount === undefined))
      throw new AppError('p2p.amount_or_fiat');
    let amount: bigint;
    if (input.amount !== undefined) {
      const parsed = tryParseDecimal(input.amount, scale, { min: 1n });
      if (!parsed.ok) throw new AppError('validation.decimal_scale', { scale });
      amount = parsed.value;
    } else {
      if (ad.currentPriceCents === 0n) throw new AppError('p2p.no_reference');
      amount = p2pAmountForFiat({
        fiatCents: parseFiat(input.fiat_amount as string),
        priceCents: ad.currentPriceCents,
        scale,
      });
      if (amount === 0n) throw new AppError('p2p.amount_out_of_limits', this.limitsOf(ad));
    }
    let methodId = 0;
    if (ad.side === 'buy') {
      // Selling to a buy ad: the buyer pays to one of the taker's own methods.
      if (input.method_id === undefined) throw new AppError('p2p.method_required');
      const method = (await this.paymentMethods.methodsById([input.method_id])).get(input.method_id);
      if (method === undefined || method.user_id !== userId || !method.active)
        throw new AppError('p2p.method_not_found');
      methodId = method.id;
    }
    const { reply } = await submitOrRefuse<{ orderId: number }>(
      this.deps.runner,
      { type: 'p2pTakeAd', userId, adId: ad.adId, amount, methodId },
      {
        refusal: (code) => {
          const refusal = p2pRefusal(code);
          if (refusal.key === 'p2p.amount_out_of_limits') return { ...refusal, params: this.limitsOf(ad) };
          if (refusal.key === 'p2p.restricted')
            return { ...refusal, params: { time: timeText(p2pNextDayStart(this.now())) } };
          return refusal;
        },
      },
    );
    return this.order(userId, reply.orderId);
  }

  private limitsOf(ad: P2pAdView): { min: string; max: string } {
    return { min: cents(ad.minFiatCents), max: cents(ad.maxFiatCents) };
  }

  async orderRow(orderId: number): Promise<OrderRow | undefined> {
    const { rows } = await this.db.query<OrderRow>(`${ORDER_SELECT} where o.order_id = $1`, [orderId]);
    return rows[0];
  }

  /** An order the user is a party to; someone else's order is answered like one that does not exist. */
  async partyRow(userId: number, orderId: number): Promise<OrderRow> {
    const row = await this.orderRow(orderId);
    if (row === undefined || (row.buyer_id !== userId && row.seller_id !== userId))
      throw new AppError('p2p.order_not_found');
    return row;
  }

  async order(userId: number, orderId: number): Promise<P2pOrder> {
    const row = await this.partyRow(userId, orderId);
    return (await this.orderViews(userId, [row]))[0] as P2pOrder;
  }

  async orderViews(viewer: number | null, rows: readonly OrderRow[]): Promise<P2pOrder[]> {
    const names = await this.merchants.nicknames(rows.flatMap((row) => [row.buyer_id, row.seller_id]));
    // The seller's payment details: the ad's methods for a sell ad, the taker's chosen one for a buy ad.
    const methodIds = rows.flatMap((row) =>
      row.method_id > 0 ? [row.method_id] : (row.ad_method_ids ?? []),
    );
    const methods = await this.paymentMethods.methodsById(methodIds);
    const appealWaitMs = this.engine.p2p.config().appealWaitMs;
    const unread =
      viewer === null
        ? new Map<string, number>()
        : await this.unreadCounts(
            viewer,
            rows.map((row) => row.order_id),
          );
    return rows.map((row) => {
      const scale = this.scaleOf(row.currency_id);
      const status = statusOf(row);
      const mySide = viewer === row.seller_id ? 'sell' : 'buy';
      const open = status !== 'completed' && status !== 'cancelled';
      const ids = row.method_id > 0 ? [row.method_id] : (row.ad_method_ids ?? []);
      return {
        id: Number(row.order_id),
        ad_id: Number(row.ad_id),
        my_side: mySide,
        buyer: { user_id: row.buyer_id, nickname: names.get(row.buyer_id) ?? '' },
        seller: { user_id: row.seller_id, nickname: names.get(row.seller_id) ?? '' },
        currency_id: row.currency_id,
        currency_name: this.engine.ledger.currency(row.currency_id)?.code ?? '',
        fiat: row.fiat as P2pFiat,
        price: cents(BigInt(row.price_cents)),
        amount: formatDecimal(BigInt(row.amount), scale),
        fiat_amount: cents(BigInt(row.fiat_cents)),
        fee: formatDecimal(BigInt(mySide === 'sell' ? row.seller_fee : row.buyer_fee), scale),
        status,
        end: row.order_end,
        created_time: Number(row.created_ms),
        deadline_time: Number(row.deadline_ms),
        paid_time: row.paid_ms === null ? null : Number(row.paid_ms),
        appeal_after_time: row.paid_ms === null ? null : Number(row.paid_ms) + appealWaitMs,
        ended_time: row.ended_ms === null ? null : Number(row.ended_ms),
        acceptor: row.acceptor,
        payment_methods: open
          ? ids.flatMap((id) => {
              const method = methods.get(id);
              return method === undefined ? [] : [methodView(method)];
            })
          : [],
        terms: row.terms ?? '',
        unread: unread.get(row.order_id) ?? 0,
      };
    });
  }

  /** The payment method each order's fiat moves by (usedMethodId), by order id; unknown ones left out. */
  async usedMethods(rows: readonly OrderRow[]): Promise<Map<number, P2pPaymentMethod>> {
    const used = new Map<number, number>();
    for (const row of rows) {
      const id = usedMethodId(row);
      if (id !== null) used.set(Number(row.order_id), id);
    }
    const methods = await this.paymentMethods.methodsById([...used.values()]);
    const views = new Map<number, P2pPaymentMethod>();
    for (const [orderId, id] of used) {
      const method = methods.get(id);
      if (method !== undefined) views.set(orderId, methodView(method));
    }
    return views;
  }

  private async unreadCounts(viewer: number, orderIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (orderIds.length === 0) return counts;
    const { rows } = await this.db.query<{ order_id: string; count: number }>(
      `select m.order_id::text, count(*)::int as count from p2p_messages m
        where m.order_id = any($1::bigint[]) and m.sender <> $2
          and m.id > coalesce((select r.last_id from p2p_message_reads r where r.order_id = m.order_id and r.user_id = $2), 0)
        group by m.order_id`,
      [orderIds, viewer],
    );
    for (const row of rows) counts.set(row.order_id, row.count);
    return counts;
  }

  async orders(
    userId: number,
    input: {
      status?: 'open' | 'completed' | 'cancelled' | 'appealed' | undefined;
      page?: number | undefined;
    },
  ): Promise<Paged<P2pOrder>> {
    const page = input.page ?? 1;
    // Fixed fragments per filter value (no input is ever spliced into the statement).
    const conditions = {
      open: `and e.status is null`,
      completed: `and e.status = 'completed'`,
      cancelled: `and e.status = 'cancelled'`,
      appealed: `and e.status is null and exists (select 1 from p2p_order_steps a where a.order_id = o.order_id and a.status = 'appealed')`,
    } as const;
    const condition = input.status === undefined ? '' : conditions[input.status];
    const where = `where (o.buyer_id = $1 or o.seller_id = $1) ${condition}`;
    const { rows } = await this.db.query<OrderRow>(
      `${ORDER_SELECT} ${where} order by o.order_id desc limit $2 offset $3`,
      [userId, P2P_PAGE_SIZE, (page - 1) * P2P_PAGE_SIZE],
    );
    const { rows: count } = await this.db.query<{ count: number }>(
      `select count(*)::int as count from p2p_orders o
         left join p2p_order_steps e on e.order_id = o.order_id and e.status in ('completed', 'cancelled') ${where}`,
      [userId],
    );
    return paged(await this.orderViews(userId, rows), page, P2P_PAGE_SIZE, count[0]?.count ?? 0);
  }

  async act(
    userId: number,
    orderId: number,
    type: 'p2pMarkPaid' | 'p2pRelease' | 'p2pCancel' | 'p2pAppeal' | 'p2pReject',
  ): Promise<void> {
    await submitOrRefuse(
      this.deps.runner,
      { type, userId, orderId },
      {
        refusal: (code) => {
          const refusal = p2pRefusal(code);
          if (refusal.key === 'p2p.appeal_too_early')
            return {
              ...refusal,
              params: { minutes: Math.round(this.engine.p2p.config().appealWaitMs / 60_000) },
            };
          return refusal;
        },
      },
    );
  }

  /**
   * The buyer marks the fiat sent. On a sell ad's order the buyer may name which of the seller's methods it
   * paid to (one the order offers); with one method offered, that one. The method is kept for the records.
   */
  async markPaid(userId: number, orderId: number, methodId?: number): Promise<P2pOrder> {
    const row = await this.partyRow(userId, orderId);
    const offered = row.method_id > 0 ? [row.method_id] : (row.ad_method_ids ?? []);
    if (methodId !== undefined && !offered.includes(methodId)) throw new AppError('p2p.method_not_found');
    await this.act(userId, orderId, 'p2pMarkPaid');
    const used = methodId ?? (offered.length === 1 ? offered[0] : undefined);
    if (row.method_id === 0 && used !== undefined)
      await this.db.query(
        'insert into p2p_paid_methods (order_id, method_id) values ($1, $2) on conflict (order_id) do nothing',
        [orderId, used],
      );
    return this.order(userId, orderId);
  }

  /** An e-mail (or SMS) code for a release, for accounts without an authenticator. */
  sendReleaseCode(userId: number, ip: string, lang: Language) {
    return this.deps.secondFactor.send(userId, ip, lang);
  }

  async release(userId: number, orderId: number, codes: SecondFactorCodes): Promise<P2pOrder> {
    const row = await this.partyRow(userId, orderId);
    if (row.seller_id !== userId) throw new AppError('p2p.order_not_found');
    if (this.engine.p2p.order(orderId) === undefined) throw new AppError('p2p.wrong_state');
    await this.deps.secondFactor.verify(userId, codes);
    await this.act(userId, orderId, 'p2pRelease');
    return this.order(userId, orderId);
  }

  async cancel(userId: number, orderId: number): Promise<P2pOrder> {
    await this.partyRow(userId, orderId);
    await this.act(userId, orderId, 'p2pCancel');
    return this.order(userId, orderId);
  }

  async appeal(
    userId: number,
    input: { id: number; reason: P2pAppealReason; description: string; evidence?: string[] | undefined },
  ): Promise<P2pOrder> {
    const row = await this.partyRow(userId, input.id);
    // A buyer complains the coins were not released, a seller that the payment was not received.
    const reasons: readonly P2pAppealReason[] = P2P_APPEAL_REASONS[row.seller_id === userId ? 'sell' : 'buy'];
    if (!reasons.includes(input.reason)) throw new AppError('p2p.appeal_reason_side');
    const evidence: string[] = [];
    for (const address of input.evidence ?? []) {
      const id = uploadIdFrom(address);
      const upload = id === null ? null : await findUpload(this.db, id);
      if (upload === null || upload.user_id !== userId) throw new AppError('upload.not_found');
      evidence.push(upload.id);
    }
    await this.act(userId, input.id, 'p2pAppeal');
    await this.db.query(
      `insert into p2p_appeals (order_id, user_id, reason, description, evidence, created_ms)
       values ($1, $2, $3, $4, $5, $6) on conflict (order_id) do nothing`,
      [input.id, userId, input.reason, input.description, evidence, this.now()],
    );
    return this.order(userId, input.id);
  }

  counters(userId: number): P2pCounters {
    const now = this.now();
    const counters = this.engine.p2p.counters(userId, now);
    return {
      cancellations_today: counters.cancellations,
      limit: this.engine.p2p.config().cancellationsPerDay,
      restricted_until: counters.restrictedUntilMs,
    };
  }
}
