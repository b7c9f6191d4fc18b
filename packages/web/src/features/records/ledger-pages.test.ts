import { describe, expect, it } from 'vitest';
import { ledgerEnd } from './ledger-pages.ts';

describe('ledgerEnd', () => {
  it('says there is nothing when nothing came', () => {
    expect(ledgerEnd(0, 0)).toBe('empty');
  });

  it('offers more after a full page and stops after a short one', () => {
    expect(ledgerEnd(20, 20)).toBe('more');
    expect(ledgerEnd(40, 20)).toBe('more');
    expect(ledgerEnd(27, 7)).toBe('end');
    expect(ledgerEnd(20, 0)).toBe('end');
  });
});
