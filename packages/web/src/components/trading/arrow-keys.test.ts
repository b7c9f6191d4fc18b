import { describe, expect, it } from 'vitest';
import { arrowTarget } from './arrow-keys.ts';

describe('arrow keys in a row of choices', () => {
  it('moves on and back, wrapping at both ends', () => {
    expect(arrowTarget('ArrowRight', 0, 3)).toBe(1);
    expect(arrowTarget('ArrowRight', 2, 3)).toBe(0);
    expect(arrowTarget('ArrowLeft', 0, 3)).toBe(2);
  });

  it('takes up and down only where asked, and ignores other keys and empty rows', () => {
    expect(arrowTarget('ArrowDown', 0, 3)).toBeNull();
    expect(arrowTarget('ArrowDown', 0, 3, true)).toBe(1);
    expect(arrowTarget('ArrowUp', 0, 3, true)).toBe(2);
    expect(arrowTarget('Enter', 0, 3, true)).toBeNull();
    expect(arrowTarget('ArrowRight', 0, 0)).toBeNull();
    expect(arrowTarget('ArrowRight', -1, 3)).toBeNull();
  });
});
