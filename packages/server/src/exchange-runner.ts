// The exchange's engine runner: the generic runner (engine-runner/) with the projectors of the product
// areas. This list is the one place an area's projection is registered; the runner itself imports no area.
import type { Command, EngineEvent } from '@fairex/engine';
import type { Store } from './store/index.ts';
import type { EngineRunnerOptions, ExchangeRunner, Projector, RebuildResult } from './engine-runner/index.ts';
import { createEngineRunner, rebuildProjections } from './engine-runner/index.ts';
import type { ExchangeKit } from './engine-runner/engine-kit.ts';
import { priceRecordProjector } from './market/projection.ts';
import { microProjector } from './micro/projection.ts';
import { leverProjector } from './lever/projection.ts';
import { productsProjector } from './products/projection.ts';
import { p2pProjector } from './p2p/projection.ts';
import { liabilitiesProjector } from './liabilities/projection.ts';
import { spotProjector } from './spot/projection.ts';
import { accountLogProjector } from './wallets/projection.ts';

export type StoreKind = 'pglite' | 'postgres' | undefined;

/** Every area's projector, in the order they write within a batch's transaction. */
export function exchangeProjectors(kind: StoreKind): Projector<Command, EngineEvent>[] {
  return [
    accountLogProjector(kind),
    spotProjector(kind),
    priceRecordProjector(kind),
    microProjector(kind),
    leverProjector(kind),
    productsProjector(kind),
    p2pProjector(kind),
    liabilitiesProjector(kind),
  ];
}

/** The runner with the exchange's projectors (unless `projectors` names others, or `projections` is false). */
export function createExchangeRunner(options: EngineRunnerOptions): Promise<ExchangeRunner> {
  return createEngineRunner({
    ...options,
    projectors: options.projectors ?? exchangeProjectors(options.store.kind),
  });
}

/** Rebuilds every area's projection from the journal (rebuildProjections). */
export function rebuildExchangeProjections(
  store: Pick<Store, 'transaction' | 'kind'>,
  kit?: ExchangeKit,
): Promise<RebuildResult> {
  return rebuildProjections(store, exchangeProjectors(store.kind), kit);
}
