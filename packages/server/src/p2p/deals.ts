// Acceptor deals (the template's acceptor screens): orders on an acceptor's ads seen as deals, placing one,
// and the acceptor's answer (release when it sold, paid when it bought, or reject).
import type { AcceptorDeal, P2pOrder, P2pPaymentMethod, Paged } from '@fairex/shared';
import { P2P_PAGE_SIZE, paged } from '@fairex/shared';
import { AppError } from '../http/app-error.ts';
import type { SecondFactorCodes } from '../wallets/second-factor.ts';
import { timeText } from './format.ts';
import { ORDER_SELECT } from './order-rows.ts';
import type { OrderRow } from './order-rows.ts';
import type { P2pDeps } from './part.ts';
import type { P2pOrders } from './orders.ts';
import { P2pPart } from './part.ts';

export class P2pDeals extends P2pPart {
  private readonly orders: P2pOrders;

  constructor(deps: P2pDeps, parts: { orders: P2pOrders }) {
    super(deps);
    this.orders = parts.orders;
  }

  /**
   * A deal as the template shows it. `used`: the payment method the fiat moves by (the customer's own when
   * it sells, the acceptor's it paid to when it buys), kept after the order ends, when the order's payment
   * details are no longer shown; else, while the order is open, the first method it offers.
   */
  private dealView(order: P2pOrder, viewer: number, used: P2pPaymentMethod | undefined): AcceptorDeal {
    const type = order.buyer.user_id === viewer ? 'buy' : 'sell';
    const acceptorIsSeller = type === 'buy';
    const method = used ?? order.payment_methods[0];
    const confirmed =
      order.status === 'completed' ||
      (!acceptorIsSeller && (order.status === 'paid' || order.status === 'appealed'));
    const isSure: 0 | 1 | 2 =
      order.status === 'cancelled' || order.end === 'arbiterToSeller' ? 2 : confirmed ? 1 : 0;
    const answered = isSure === 0 ? null : (order.ended_time ?? order.paid_time);
    return {
      id: order.id,
      type,
      money: order.fiat_amount,
      number: order.amount,
      deal_account: type === 'sell' ? (method?.account ?? '') : '',
      acceptor_name: acceptorIsSeller ? order.seller.nickname : order.buyer.nickname,
      hes_account: acceptorIsSeller ? (method?.account ?? '') : '',
      way: method?.method ?? 'bank',
      is_sure: isSure,
      create_time: timeText(order.created_time),
      update_time: answered === null ? '' : timeText(answered),
      order_id: order.id,
    };
  }

  async myDeals(
    userId: number,
    input: { type?: 'buy' | 'sell' | undefined; page?: number | undefined },
  ): Promise<Paged<AcceptorDeal>> {
    const page = input.page ?? 1;
    const side =
      input.type === 'buy' ? 'and o.buyer_id = $1' : input.type === 'sell' ? 'and o.seller_id = $1' : '';
    const where = `where o.acceptor and o.maker_id <> $1 and (o.buyer_id = $1 or o.seller_id = $1) ${side}`;
    const { rows } = await this.db.query<OrderRow>(
      `${ORDER_SELECT} ${where} order by o.order_id desc limit $2 offset $3`,
      [userId, P2P_PAGE_SIZE, (page - 1) * P2P_PAGE_SIZE],
    );
    const { rows: count } = await this.db.query<{ count: number }>(
      `select count(*)::int as count from p2p_orders o ${where}`,
      [userId],
    );
    const views = await this.orders.orderViews(userId, rows);
    const used = await this.orders.usedMethods(rows);
    return paged(
      views.map((view) => this.dealView(view, userId, used.get(view.id))),
      page,
      P2P_PAGE_SIZE,
      count[0]?.count ?? 0,
    );
  }

  async createDeal(
    userId: number,
    input: { type: 'buy' | 'sell'; ad_id: number; money: string; method_id?: number | undefined },
  ): Promise<AcceptorDeal> {
    const ad = this.engine.p2p.ad(input.ad_id);
    if (ad === undefined || !ad.acceptor) throw new AppError('p2p.ad_not_found');
    // Buying from an acceptor takes its sell ad; selling to one takes its buy ad.
    if ((input.type === 'buy') !== (ad.side === 'sell')) throw new AppError('p2p.ad_not_found');
    const order = await this.orders.createOrder(userId, {
      ad_id: input.ad_id,
      fiat_amount: input.money,
      method_id: input.method_id,
    });
    return this.dealOf(order.id, userId);
  }

  private async dealOf(orderId: number, customer: number): Promise<AcceptorDeal> {
    const order = await this.orders.order(customer, orderId);
    const row = await this.orders.orderRow(orderId);
    const used = row === undefined ? undefined : (await this.orders.usedMethods([row])).get(orderId);
    return this.dealView(order, customer, used);
  }

  /** The acceptor confirms: a release when it sold (second factor), "paid" when it bought. */
  async answerDeal(
    userId: number,
    orderId: number,
    accept: boolean,
    codes: SecondFactorCodes,
  ): Promise<AcceptorDeal> {
    const row = await this.orders.partyRow(userId, orderId);
    if (!row.acceptor || row.maker_id !== userId) throw new AppError('p2p.not_acceptor');
    if (!accept) await this.orders.act(userId, orderId, 'p2pReject');
    else if (row.seller_id === userId) await this.orders.release(userId, orderId, codes);
    else await this.orders.act(userId, orderId, 'p2pMarkPaid');
    const customer = row.buyer_id === userId ? row.seller_id : row.buyer_id;
    return this.dealOf(orderId, customer);
  }
}
