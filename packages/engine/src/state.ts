import {
  DEFAULT_IDEMPOTENCY_MAX_KEYS,
  DEFAULT_IDEMPOTENCY_WINDOW_MS,
  DEFAULT_MAX_OPEN_ORDERS_PER_OWNER,
} from './limits.ts';

export type { Currency } from './ledger/ledger.ts';

/** Behaviour that must be the same on every replica; it is part of the snapshot and the state hash. */
export type EngineOptions = {
  idempotencyWindowMs: number;
  idempotencyMaxKeys: number;
  maxOpenOrdersPerOwner: number;
};

export const defaultEngineOptions: EngineOptions = {
  idempotencyWindowMs: DEFAULT_IDEMPOTENCY_WINDOW_MS,
  idempotencyMaxKeys: DEFAULT_IDEMPOTENCY_MAX_KEYS,
  maxOpenOrdersPerOwner: DEFAULT_MAX_OPEN_ORDERS_PER_OWNER,
};

export type BookImplementation = 'fast' | 'reference';
