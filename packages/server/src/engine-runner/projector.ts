// The seam between the runner and the product areas' projections. The runner knows only this interface: it
// is handed a list of projectors at start (app.ts builds it from the areas, exchange-runner.ts), calls each
// with every committed batch inside the batch's transaction, and imports no area itself.
//
// Also here: the bulk row writer every projector uses (one statement per table per batch) and the owner
// numbering the projection tables share.
import { SYSTEM_OWNERS } from '@fairex/engine';
import type { AccountOwner } from '@fairex/engine';
import type { Queryable, StoreTransaction } from '../store/index.ts';
import type { CommittedEntry } from './types.ts';

/** What a projector writes through: a store transaction (COPY), or a bare connection (insertRows' unnest only). */
export type ProjectionTransaction = Queryable & Pick<Partial<StoreTransaction>, 'copyFrom'>;

/**
 * One area's projection: rows derived from the events of a committed batch, written in the batch's own
 * transaction, so that what a caller is told about is visible the moment it is answered. Everything a
 * projector writes can be rebuilt from the journal (rebuildProjections), so it must be a pure function of
 * the entries it is given: no clock, no reads of the live engine.
 */
export interface Projector<C = unknown, E = unknown> {
  /** The area's name, for logs and the docs. */
  readonly name: string;
  /** The tables it writes, in the order a rebuild empties them. */
  readonly tables: readonly string[];
  /** Writes the rows of one batch; throws on a projection bug (the commit then fails, crash-only). */
  project(entries: readonly CommittedEntry<C, E>[], tx: ProjectionTransaction): Promise<void>;
}

/** A user id as itself; system owners as negative keys (house -1 ... outside -5), as the engine numbers them. */
export function ownerKey(owner: AccountOwner): number {
  if (typeof owner === 'number') return owner;
  const index = SYSTEM_OWNERS.indexOf(owner);
  if (index < 0) throw new RangeError(`unknown owner ${String(owner)}`);
  return -(index + 1);
}

/**
 * How rows reach a table. Both stores take COPY FROM STDIN of text built straight from the column arrays:
 * on PostgreSQL through the pg-copy-streams protocol stream (no parameters to bind, no arrays to parse, no
 * unnest), on PGlite from an in-memory blob, which on the WebAssembly build is about twice as fast as unnest
 * because each value goes straight through its type's input function. `unnest` (one INSERT ... SELECT FROM
 * unnest of one array per column) is the fallback for a bare connection, which has no COPY.
 */
export type BulkMode = 'unnest' | 'copy';

/** The bulk mode for a store of the given kind: COPY on both. */
export function bulkModeOf(kind: 'pglite' | 'postgres' | undefined): BulkMode {
  return kind === undefined ? 'unnest' : 'copy';
}

/** One table's new rows as one array per column, in `columns` order; `types` are the columns' SQL types. */
export interface TableRows {
  table: string;
  columns: readonly string[];
  types: readonly string[];
  /** Numbers, bigints, strings or null; amounts as bigint (or decimal text), never a JS number. */
  data: readonly (readonly unknown[])[];
}

/** Inserts a table's rows with one statement (nothing when there are none). */
export async function insertRows(tx: ProjectionTransaction, mode: BulkMode, rows: TableRows): Promise<void> {
  const count = rows.data[0]?.length ?? 0;
  if (count === 0) return;
  if (mode === 'copy' && tx.copyFrom) {
    await tx.copyFrom(rows.table, rows.columns, copyText(rows.data, count));
    return;
  }
  const selects = rows.types.map((type, index) => `$${index + 1}::${type}[]`).join(', ');
  await tx.query(
    `insert into ${rows.table} (${rows.columns.join(', ')}) select * from unnest(${selects})`,
    rows.data,
  );
}

/**
 * A table's new rows built as COPY text while the events are read: each row is one line appended where its
 * values are at hand (numbers and bigints as they print, text through `copyField`, tab-separated,
 * newline-terminated), with no row object or column array in between.
 */
export interface CopyRows {
  table: string;
  columns: readonly string[];
  text: string;
  count: number;
}

/** An empty COPY text builder for a table. */
export function copyRows(table: { table: string; columns: readonly string[] }): CopyRows {
  return { table: table.table, columns: table.columns, text: '', count: 0 };
}

/** A text (or absent) value as a COPY field: \N for null, backslash escapes. */
export function copyField(value: string | null | undefined): string {
  return copyValue(value);
}

/** Writes rows built as COPY text with one statement (nothing when there are none); needs a store transaction. */
export async function writeCopyRows(tx: ProjectionTransaction, rows: CopyRows): Promise<void> {
  if (rows.count === 0) return;
  if (!tx.copyFrom) throw new Error(`${rows.table} rows need a store transaction, which has COPY`);
  await tx.copyFrom(rows.table, rows.columns, rows.text);
}

/** COPY text format: tab-separated, newline-terminated, \N for null, backslash escapes in text. */
function copyText(columns: readonly (readonly unknown[])[], count: number): string {
  let text = '';
  for (let row = 0; row < count; row++) {
    let line = copyValue((columns[0] as readonly unknown[])[row]);
    for (let column = 1; column < columns.length; column++) {
      line += '\t' + copyValue((columns[column] as readonly unknown[])[row]);
    }
    text += line + '\n';
  }
  return text;
}

const COPY_SPECIAL = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value !== 'string') return String(value);
  return value.replace(COPY_SPECIAL, (character) => COPY_ESCAPES[character] as string);
}
