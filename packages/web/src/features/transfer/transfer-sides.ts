import type { WalletType } from '../../data/wallet.ts';

export interface TransferSides {
  from: WalletType;
  to: WalletType;
}

/** Spec 02 section 2.3: the default direction is change to lever. */
export const DEFAULT_SIDES: TransferSides = { from: 'change', to: 'lever' };

/**
 * Picks a wallet on one side. Picking on one side the wallet already chosen on the other swaps the two
 * (spec 02 sections 2.3 and 4), so the two sides are never the same.
 */
export function chooseWallet(
  sides: TransferSides,
  side: keyof TransferSides,
  wallet: WalletType,
): TransferSides {
  const other = side === 'from' ? 'to' : 'from';
  if (sides[other] === wallet) return { [side]: wallet, [other]: sides[side] } as unknown as TransferSides;
  return { ...sides, [side]: wallet };
}

export function swapSides(sides: TransferSides): TransferSides {
  return { from: sides.to, to: sides.from };
}
