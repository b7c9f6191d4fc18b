// What a product must hold on its house account (docs/products.md, "Capacity"). Pure functions of the state.
import { defiDaily } from '../calc/products.ts';
import type { ProductTerms } from './commands.ts';
import type { Product, ProductKind } from './state.ts';

/** A unit's promise per day for a miner: the fixed amount, or the range's maximum for a recorded rate. */
export function minerPromisePerUnit(terms: ProductTerms): bigint {
  return terms.rateKind === 'recorded' ? terms.rateMax : terms.rateMin;
}

/** What selling `units` more would promise (ico: the tokens themselves). */
export function promiseOfUnits(
  kind: ProductKind,
  terms: ProductTerms,
  unitMinor: bigint,
  units: bigint,
): bigint {
  if (units <= 0n) return 0n;
  switch (kind) {
    case 'ico':
      return units * unitMinor;
    case 'miner':
      return units * minerPromisePerUnit(terms) * BigInt(terms.days);
    case 'defi':
      return defiDaily({ principal: units * unitMinor, aprBp: terms.aprBp }) * BigInt(terms.days);
  }
}

/**
 * What the house must hold for the product: while it sells, the promise of its unsold units (for a sale,
 * the unsold tokens); always, the promise of its holdings' days not yet accrued.
 */
export function requiredReserve(product: Product): bigint {
  const unsold =
    product.status === 'open'
      ? promiseOfUnits(
          product.kind,
          product.terms,
          product.unitMinor,
          product.terms.totalUnits - product.sold,
        )
      : 0n;
  return unsold + product.unaccruedPromised;
}
