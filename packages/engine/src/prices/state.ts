import type { AreaSetup } from '../kernel/area.ts';
import type { Port } from '../kernel/ports.ts';
import type { IndexPrice } from './index-price.ts';
import type { PriceChain } from './price-record.ts';

/** The price area's state slice. */
export class PricesState {
  /** The latest journaled index (mark) price per market id. */
  readonly indexPrices = new Map<number, IndexPrice>();
  /** Each market's price chain: the latest sample's index, mark and link, and the last published head. */
  readonly priceChains = new Map<number, PriceChain>();
  /** The command time in force. */
  readonly commandTimeMs: () => number;
  private readonly setup: AreaSetup;

  constructor(setup: AreaSetup) {
    this.setup = setup;
    this.commandTimeMs = () => setup.commandTimeMs();
  }

  /** What another area answers through a port the price area declares. */
  port<Q>(target: Port<Q>): Q {
    return this.setup.port(target);
  }
}
