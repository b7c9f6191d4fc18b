// What a statement gives back, on every driver (store.ts, and the embedded store's thread: pglite-thread.ts).

export type Row = Record<string, unknown>;

/**
 * Rows as plain objects. Type mapping is the same on both drivers: int8 (bigint) comes back as a JS
 * `bigint`, numeric as a string, int2/int4 as number, timestamptz as Date, json/jsonb parsed.
 */
export interface QueryResult<T = Row> {
  rows: T[];
  /** Rows inserted, updated or deleted by a DML statement; the number of rows returned otherwise. */
  rowCount: number;
}

/** PGlite's parsers for that mapping: int8 (type OID 20 in every PostgreSQL) as a JS `bigint`. */
export const PGLITE_PARSERS = { 20: (value: string): bigint => BigInt(value) };
