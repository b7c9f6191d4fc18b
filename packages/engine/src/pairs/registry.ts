import type { Ledger } from '../ledger/ledger.ts';
import type { Pair, PairConfig } from './pair.ts';

/**
 * Where the pairs are kept: the spot area's state, whose markets are pairs with their books (a pair and its
 * book are created together, and the snapshot's `markets` section holds both). The pair operations read and
 * add pairs only through this.
 */
export interface PairRegistry {
  readonly ledger: Ledger;
  readonly markets: ReadonlyMap<number, Pair>;
  /** Registers a new pair (with whatever the keeper makes along with it). */
  createPair(config: PairConfig): Pair;
}
