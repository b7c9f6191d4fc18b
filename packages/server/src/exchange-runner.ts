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
import { transparencyProjector } from './transparency/projection.ts';
import type { Ed25519Key } from './transparency/note.ts';
import type { LogKeySource } from './transparency/projection.ts';

export type StoreKind = 'pglite' | 'postgres' | undefined;

/**
 * Every area's projector, in the order they write within a batch's transaction. `logKey` signs the
 * transparency log's checkpoints (transparency/projection.ts); a journal whose log was started needs it.
 */
export function exchangeProjectors(
  kind: StoreKind,
  logKey?: LogKeySource,
): Projector<Command, EngineEvent>[] {
  return [
    accountLogProjector(kind),
    spotProjector(kind),
    priceRecordProjector(kind),
    microProjector(kind),
    leverProjector(kind),
    productsProjector(kind),
    p2pProjector(kind),
    transparencyProjector(kind, logKey),
    liabilitiesProjector(kind),
  ];
}

/** The runner with the exchange's projectors (unless `projectors` names others, or `projections` is false). */
export function createExchangeRunner(
  options: EngineRunnerOptions & { logKey?: Ed25519Key },
): Promise<ExchangeRunner> {
  const { logKey, ...rest } = options;
  return createEngineRunner({
    ...rest,
    projectors: options.projectors ?? exchangeProjectors(options.store.kind, logKey),
  });
}

/**
 * Rebuilds every area's projection from the journal (rebuildProjections); `logKey` (openLogKey) re-signs the
 * log's checkpoints, which a journal whose log was started needs.
 */
export function rebuildExchangeProjections(
  store: Pick<Store, 'transaction' | 'kind'>,
  kit?: ExchangeKit,
  logKey?: Ed25519Key,
): Promise<RebuildResult> {
  return rebuildProjections(store, exchangeProjectors(store.kind, logKey), kit);
}
