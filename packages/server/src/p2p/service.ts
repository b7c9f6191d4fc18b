// The P2P area's work (docs/p2p.md), one part a file: merchants (applications, statistics), payment methods,
// ads, orders (steps and counters), an order's room (chat, images), feedback after completion, acceptor deals, the settings, and the
// back office's reads and decisions. Money moves only through engine commands (submitOrRefuse); the rows the
// gateway keeps itself are the applications, payment methods, messages, appeals and decisions. Every private
// read is scoped to the order's two parties (or an arbiter's back-office call).
import { P2pAds } from './ads.ts';
import { P2pBackOffice } from './back-office.ts';
import { P2pDeals } from './deals.ts';
import { P2pFeedbackPart } from './feedback.ts';
import { P2pMerchants } from './merchants.ts';
import { P2pOrderRoom } from './order-room.ts';
import { P2pOrders } from './orders.ts';
import type { P2pDeps } from './part.ts';
import { P2pPaymentMethods } from './payment-methods.ts';
import { P2pSettings } from './settings.ts';

export { DEFAULT_P2P_THRESHOLDS, type P2pDeps, type P2pThresholds } from './part.ts';
export { p2pImageAddress } from './format.ts';

/** The parts, built once over the same dependencies (app.p2p). */
export class P2pService {
  readonly settings: P2pSettings;
  readonly merchants: P2pMerchants;
  readonly paymentMethods: P2pPaymentMethods;
  readonly ads: P2pAds;
  readonly orders: P2pOrders;
  readonly room: P2pOrderRoom;
  readonly deals: P2pDeals;
  readonly feedback: P2pFeedbackPart;
  readonly backOffice: P2pBackOffice;

  constructor(deps: P2pDeps) {
    this.settings = new P2pSettings(deps);
    this.merchants = new P2pMerchants(deps);
    this.paymentMethods = new P2pPaymentMethods(deps, { merchants: this.merchants });
    const parts = { merchants: this.merchants, paymentMethods: this.paymentMethods };
    this.ads = new P2pAds(deps, parts);
    this.orders = new P2pOrders(deps, parts);
    this.room = new P2pOrderRoom(deps, { orders: this.orders });
    this.deals = new P2pDeals(deps, { orders: this.orders });
    this.feedback = new P2pFeedbackPart(deps, { orders: this.orders });
    this.backOffice = new P2pBackOffice(deps, {
      ads: this.ads,
      merchants: this.merchants,
      orders: this.orders,
      room: this.room,
    });
  }
}
