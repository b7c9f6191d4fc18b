// The products area: token sales, cloud mining, defi staking (docs/products.md).
export * from './codes.ts';
export type * from './commands.ts';
export type * from './events.ts';
export { ProductsState } from './state.ts';
export type {
  EarlyExitPolicy,
  Holding,
  MinerRateKind,
  Product,
  ProductKind,
  ProductStatus,
} from './state.ts';
export { productsArea } from './area.ts';
export type { HoldingView, ProductView, ProductsQueries } from './reads.ts';
export { requiredReserve, promiseOfUnits } from './rules.ts';
export {
  PRODUCT_EARNED_HOLDS,
  PRODUCT_RESERVE_HOLDS,
  PRODUCT_STAKE_HOLDS,
  MAX_PRODUCT_UNITS,
} from './handlers.ts';
