// What the price source is, as every page and proof states it (docs/price-record.md, "Simulated prices"):
// `simulated` when any source of the index is the simulator, whose prices are made up for the demo. On a
// simulated source, products that settle on prices (seconds contracts, leverage) take new orders only
// while DEMO=on; closing and cancelling always work.
import type { PriceSourceKind, PriceSourceReply } from '@fairex/shared';
import type { Config } from '../config.ts';
import { AppError } from '../http/app-error.ts';

export function priceSourceKind(names: readonly string[]): PriceSourceKind {
  return names.includes('simulated') ? 'simulated' : 'live';
}

export class PriceSourcePolicy {
  readonly #config: Pick<Config, 'demo' | 'priceSources'>;
  readonly #names: () => readonly string[] | undefined;

  /** `names`: the sources in use when the live market runs (undefined: the configured ones). */
  constructor(config: Pick<Config, 'demo' | 'priceSources'>, names: () => readonly string[] | undefined) {
    this.#config = config;
    this.#names = names;
  }

  get demo(): boolean {
    return this.#config.demo;
  }

  sources(): string[] {
    return [...(this.#names() ?? this.#config.priceSources)];
  }

  kind(): PriceSourceKind {
    return priceSourceKind(this.sources());
  }

  /** Whether seconds contracts and leverage take new orders: not on simulated prices with DEMO=off. */
  ordersOpen(): boolean {
    return this.#config.demo || this.kind() !== 'simulated';
  }

  /** Refuses an order that opens a seconds contract or a leverage position when orders are not open. */
  checkOpen(): void {
    if (!this.ordersOpen()) throw new AppError('market.simulated_demo_only');
  }

  reply(): PriceSourceReply {
    return { kind: this.kind(), sources: this.sources(), demo: this.demo, orders_open: this.ordersOpen() };
  }
}
