import { describe, expect, it } from 'vitest';
import { DEFAULT_SIDES, chooseWallet, swapSides } from './transfer-sides.ts';

describe('transfer sides', () => {
  it('starts from change to lever', () => {
    expect(DEFAULT_SIDES).toEqual({ from: 'change', to: 'lever' });
  });

  it('changes one side when the wallet is free', () => {
    expect(chooseWallet(DEFAULT_SIDES, 'to', 'micro')).toEqual({ from: 'change', to: 'micro' });
    expect(chooseWallet(DEFAULT_SIDES, 'from', 'defi')).toEqual({ from: 'defi', to: 'lever' });
  });

  it('swaps the sides when the other side already has the wallet', () => {
    expect(chooseWallet(DEFAULT_SIDES, 'from', 'lever')).toEqual({ from: 'lever', to: 'change' });
    expect(chooseWallet(DEFAULT_SIDES, 'to', 'change')).toEqual({ from: 'lever', to: 'change' });
  });

  it('leaves the sides alone when the same wallet is picked again', () => {
    expect(chooseWallet(DEFAULT_SIDES, 'from', 'change')).toEqual(DEFAULT_SIDES);
  });

  it('swaps on demand', () => {
    expect(swapSides(DEFAULT_SIDES)).toEqual({ from: 'lever', to: 'change' });
  });
});
