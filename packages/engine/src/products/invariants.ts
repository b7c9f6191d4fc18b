import { invariant } from '../invariant.ts';
import { HOUSE_OWNER_KEY } from '../ledger/accounts.ts';
import type { Hold } from '../ledger/holds.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { PRODUCT_EARNED_HOLDS, PRODUCT_RESERVE_HOLDS, PRODUCT_STAKE_HOLDS } from './handlers.ts';
import { requiredReserve } from './rules.ts';
import { scheduleRestored } from './snapshot.ts';
import { accruedOf, emptySums } from './state.ts';
import type { Holding, HoldingSums, Product, ProductsState } from './state.ts';

function sumsText(sums: HoldingSums): string {
  return `${sums.count}/${sums.units}/${sums.daily}/${sums.promise}`;
}

function mapText(map: Map<number, HoldingSums>): string {
  return [...map]
    .sort(([a], [b]) => a - b)
    .map(([day, sums]) => `${day}:${sumsText(sums)}`)
    .join(',');
}

function checkHold(
  hold: Hold | null,
  owner: string,
  ref: number,
  amount: bigint,
  ownerKey: number,
  what: string,
): void {
  if (amount === 0n) {
    invariant(hold === null, `${what}: a hold of nothing`);
    return;
  }
  invariant(hold !== null && hold.open, `${what}: no open hold for ${amount}`);
  invariant(hold.area === owner && hold.ref === ref, `${what}: hold ${hold.area}/${hold.ref}`);
  invariant(hold.amount === amount, `${what}: holds ${hold.amount}, needs ${amount}`);
  invariant(hold.account.ownerKey === ownerKey, `${what}: hold on the wrong owner`);
}

/**
 * The products area's rules: sold never above the total; each product's reserve is exactly what it must hold
 * (its unsold promise while open, plus its holdings' promises for days not yet accrued) and its earned hold
 * exactly what its holdings have accrued and not been paid; each stake's principal is held on the user's
 * defi wallet; the accrual schedule equals one derived afresh from the holdings; no other products hold.
 */
export function checkProductsInvariants(state: ProductsState, ledger: Ledger): void {
  const byProduct = new Map<number, Holding[]>();
  for (const holding of state.holdings.values()) {
    invariant(holding.holdingId < state.nextHoldingId, `holding ${holding.holdingId} from the future`);
    const list = byProduct.get(holding.productId);
    if (list === undefined) byProduct.set(holding.productId, [holding]);
    else list.push(holding);
  }
  const expected = { reserve: 0, earned: 0, stake: 0 };
  for (const product of state.products.values()) {
    const id = product.productId;
    invariant(id < state.nextProductId, `product ${id} from the future`);
    invariant(
      product.sold >= 0n && product.sold <= product.terms.totalUnits,
      `product ${id} sold ${product.sold}`,
    );
    const holdings = byProduct.get(id) ?? [];
    byProduct.delete(id);
    const fresh: Product = {
      ...product,
      unaccruedPromised: 0n,
      unfinished: 0,
      active: emptySums(),
      startsAt: new Map(),
      endsAt: new Map(),
      maturing: new Map(),
    };
    let owed = 0n;
    for (const holding of holdings) {
      invariant(holding.kind === product.kind, `holding ${holding.holdingId} kind`);
      scheduleRestored(fresh, holding);
      const accrued = accruedOf(product, holding);
      invariant(
        holding.extracted >= 0n && holding.extracted <= accrued,
        `holding ${holding.holdingId} extracted`,
      );
      owed += accrued - holding.extracted;
      if (holding.kind === 'defi') {
        checkHold(
          holding.principalHold,
          PRODUCT_STAKE_HOLDS,
          holding.holdingId,
          holding.principal,
          holding.userId,
          `stake ${holding.holdingId}`,
        );
        expected.stake += 1;
      }
    }
    invariant(
      fresh.unfinished === product.unfinished,
      `product ${id} unfinished ${product.unfinished} != ${fresh.unfinished}`,
    );
    invariant(fresh.unaccruedPromised === product.unaccruedPromised, `product ${id} unaccrued promise`);
    invariant(sumsText(fresh.active) === sumsText(product.active), `product ${id} active sums`);
    invariant(mapText(fresh.startsAt) === mapText(product.startsAt), `product ${id} starts`);
    invariant(mapText(fresh.endsAt) === mapText(product.endsAt), `product ${id} ends`);
    for (const day of product.startsAt.keys())
      invariant(day >= product.nextAccrualDay, `product ${id} start in the past`);
    const reserve = requiredReserve(product);
    checkHold(
      product.reserveHold,
      PRODUCT_RESERVE_HOLDS,
      id,
      reserve,
      HOUSE_OWNER_KEY,
      `product ${id} reserve`,
    );
    checkHold(product.earnedHold, PRODUCT_EARNED_HOLDS, id, owed, HOUSE_OWNER_KEY, `product ${id} earned`);
    if (reserve > 0n) expected.reserve += 1;
    if (owed > 0n) expected.earned += 1;
  }
  invariant(byProduct.size === 0, 'holdings of unknown products');
  invariant(ledger.holdsOf(PRODUCT_RESERVE_HOLDS).size === expected.reserve, 'stray product reserve holds');
  invariant(ledger.holdsOf(PRODUCT_EARNED_HOLDS).size === expected.earned, 'stray product earned holds');
  invariant(ledger.holdsOf(PRODUCT_STAKE_HOLDS).size === expected.stake, 'stray stake holds');
}
