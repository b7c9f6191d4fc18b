// The base of the parts that show merchants and their payment methods with what they list (ads, orders).
import type { P2pMerchants } from './merchants.ts';
import { P2pPart, type P2pDeps } from './part.ts';
import type { P2pPaymentMethods } from './payment-methods.ts';

/** A part that shows merchants and their payment methods: the ads and the orders. */
export abstract class P2pListingPart extends P2pPart {
  protected readonly merchants: P2pMerchants;
  protected readonly paymentMethods: P2pPaymentMethods;

  constructor(deps: P2pDeps, parts: { merchants: P2pMerchants; paymentMethods: P2pPaymentMethods }) {
    super(deps);
    this.merchants = parts.merchants;
    this.paymentMethods = parts.paymentMethods;
  }
}
