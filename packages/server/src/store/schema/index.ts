// Every Drizzle table of the store. Add one file per area and export it here; the schema test
// then checks its columns against the migrated database.
export * from './accounts.ts';
export * from './accounts-security.ts';
export * from './backoffice.ts';
export * from './catalog.ts';
export * from './journal.ts';
export * from './market-data.ts';
export * from './news.ts';
export * from './price-record.ts';
export * from './wallets.ts';
export * from './products.ts';
