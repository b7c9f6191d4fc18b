// The text of the log's entries (UTF-8, every line ending in "\n"). docs/transparency.md is the public
// description and must stay equal to this code.
//
//   fairex-log-v1 prices
//   time <command time ms>
//   <symbol> <sample seq> <sample hash hex>            one line per market, ascending by symbol (byte order)
//
//   fairex-log-v1 liabilities
//   snapshot <snapshot id>
//   seq <engine seq of the capture>
//   time <capture command time ms>
//   leaves <leaf count>
//   root <sum tree root hex>
//   total <column> <amount>                            one line per column, in column order
//   identity <currency> <users> <exchange> <outside>   one line per currency, ascending by currency code
import type { LiabilitiesIdentity } from './events.ts';

export const LOG_ENTRY_VERSION = 'fairex-log-v1';

/** One sample in a prices entry: the market's "BASE/QUOTE" symbol, the sample's seq and chain hash. */
export type BatchSample = readonly [symbol: string, seq: number, hash: string];

/** Byte order of two strings' UTF-8 (for the ASCII symbols and codes of the log, plain code unit order). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The entry of one `recordPriceSamples` command; `samples` already ascending by symbol. */
export function pricesEntry(timeMs: number, samples: readonly BatchSample[]): string {
  let text = `${LOG_ENTRY_VERSION} prices\ntime ${timeMs}\n`;
  for (const [symbol, seq, hash] of samples) text += `${symbol} ${seq} ${hash}\n`;
  return text;
}

export type LiabilitiesEntryFields = {
  snapshotId: string;
  seq: number;
  timeMs: number;
  leafCount: number;
  root: string;
  columns: readonly string[];
  totals: readonly bigint[];
  /** Ascending by currency code. */
  identity: readonly LiabilitiesIdentity[];
};

/** The entry of a published liabilities snapshot. */
export function liabilitiesEntry(fields: LiabilitiesEntryFields): string {
  let text =
    `${LOG_ENTRY_VERSION} liabilities\nsnapshot ${fields.snapshotId}\nseq ${fields.seq}\n` +
    `time ${fields.timeMs}\nleaves ${fields.leafCount}\nroot ${fields.root}\n`;
  fields.columns.forEach((column, index) => {
    text += `total ${column} ${fields.totals[index] as bigint}\n`;
  });
  for (const { currency, users, exchange, outside } of fields.identity)
    text += `identity ${currency} ${users} ${exchange} ${outside}\n`;
  return text;
}
