export type {
  Database,
  OpenStoreOptions,
  Queryable,
  QueryResult,
  Row,
  Store,
  StoreConnection,
  StoreKind,
  StoreSchema,
  StoreTransaction,
} from './store.ts';
export { openStore } from './store.ts';
