import { describe, expect, it } from 'vitest';
import { pageOfList, pageRows, paged } from './envelope.ts';

describe('pages of a list held in memory', () => {
  const rows = Array.from({ length: 23 }, (_, index) => index + 1);

  it('cuts page n of perPage rows, the last one short and anything past it empty', () => {
    expect(pageRows(rows, 1, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(pageRows(rows, 3, 10)).toEqual([21, 22, 23]);
    expect(pageRows(rows, 4, 10)).toEqual([]);
    expect(pageRows([], 1, 10)).toEqual([]);
  });

  it('gives the page with the counts of the whole list', () => {
    expect(pageOfList(rows, 2, 10)).toEqual({
      data: [11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
      current_page: 2,
      last_page: 3,
      per_page: 10,
      total: 23,
    });
    expect(pageOfList([], 1, 10)).toEqual(paged([], 1, 10, 0));
    expect(pageOfList([], 1, 10).last_page).toBe(1);
  });
});
