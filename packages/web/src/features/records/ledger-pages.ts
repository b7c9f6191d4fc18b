/** Spec 02 section 9: the account ledger loads 20 entries a page. */
export const LEDGER_PAGE_SIZE = 20;

export type LedgerEnd = 'empty' | 'more' | 'end';

/**
 * What follows the entries loaded so far (spec 02 section 8): a no-data text when there are none, a
 * no-more text once a page came back shorter than the page size, otherwise the button for more.
 */
export function ledgerEnd(loaded: number, lastPageLength: number, pageSize = LEDGER_PAGE_SIZE): LedgerEnd {
  if (loaded === 0) return 'empty';
  return lastPageLength < pageSize ? 'end' : 'more';
}
