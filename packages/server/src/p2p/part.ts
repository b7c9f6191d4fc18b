// What the parts of the P2P service share (service.ts assembles them): their dependencies, the merchant
// thresholds, and a base that reads the engine and the store and submits commands through submit-or-refuse.
import type { Command, Engine, EngineEvent } from '@fairex/engine';
import type { EngineRunner } from '../engine-runner/index.ts';
import { submitOrRefuse } from '../engine-runner/submit.ts';
import { AppError } from '../http/app-error.ts';
import type { Realtime } from '../realtime/index.ts';
import type { Store } from '../store/index.ts';
import type { SecondFactor } from '../wallets/second-factor.ts';
import { p2pRefusal } from './refusals.ts';

export interface P2pThresholds {
  /** Days since registration before a user may apply to be a merchant. */
  minAccountAgeDays: number;
  /** Completed P2P orders before a user may apply. */
  minCompletedTrades: number;
}

export const DEFAULT_P2P_THRESHOLDS: P2pThresholds = { minAccountAgeDays: 7, minCompletedTrades: 0 };

export interface P2pDeps {
  runner: Pick<EngineRunner<Command, EngineEvent, Engine>, 'submit' | 'engine'>;
  store: Store;
  dataDir: string;
  secondFactor: SecondFactor;
  realtime: Pick<Realtime, 'toUser'>;
  thresholds: P2pThresholds;
  /** P2P_WINDOW_SECONDS: test and demo runs give every new ad this short window (0: off). */
  windowSecondsOverride?: number;
  now?: () => number;
}

/** What every part of the P2P service works with: the engine through the runner, the store, the clock. */
export abstract class P2pPart {
  protected readonly deps: P2pDeps;
  protected readonly now: () => number;

  constructor(deps: P2pDeps) {
    this.deps = deps;
    this.now = deps.now ?? (() => Date.now());
  }

  protected get engine(): Engine {
    return this.deps.runner.engine;
  }

  protected get db(): Store {
    return this.deps.store;
  }

  protected scaleOf(currencyId: number): number {
    const currency = this.engine.ledger.currency(currencyId);
    if (currency === undefined) throw new AppError('p2p.unknown_asset');
    return currency.scale;
  }

  protected submit<R>(command: Command) {
    return submitOrRefuse<R>(this.deps.runner, command, { refusal: p2pRefusal });
  }
}
