import type { EarlyExitPolicy, MinerRateKind, ProductKind } from './state.ts';

/** Display texts, journaled with the terms (the engine checks their length only). */
export type ProductDetails = {
  title: string;
  logo: string;
  white: string;
  image: string;
  /** Miner: the hashrate text of one unit; defi: the type text. */
  label: string;
  description: string;
};

/**
 * The terms of a product. Units are whole tokens (ico), rented units (miner) or whole coins (defi); `price`
 * is minor units of the pay currency per unit; miner rates minor units of the earned currency per unit per
 * day; the sale window is command time in milliseconds. Fields a kind does not use are 0 / null.
 */
export type ProductTerms = {
  startMs: number;
  endMs: number;
  /** ico: the token; miner: the earned currency; defi: the staked currency. */
  currencyId: number;
  /** ico and miner: the pay currency; defi: the staked currency. */
  payCurrencyId: number;
  totalUnits: bigint;
  unitPrice: bigint;
  feeBp: number;
  days: number;
  rateKind: MinerRateKind | null;
  rateMin: bigint;
  rateMax: bigint;
  aprBp: number;
  earlyExit: EarlyExitPolicy | null;
  perUserCap: bigint | null;
};

/** A draft product (not selling until opened). */
export type CreateProductCommand = {
  type: 'createProduct';
  kind: ProductKind;
  terms: ProductTerms;
  details: ProductDetails;
};

/** New terms for future purchases; holdings keep theirs. Kind and currencies stay. */
export type EditProductCommand = {
  type: 'editProduct';
  productId: number;
  terms: ProductTerms;
  details: ProductDetails;
};

/** Opens (or re-opens) a product: the house account must hold what it promises. */
export type OpenProductCommand = { type: 'openProduct'; productId: number };

/** Stops a product's sales: the unsold part of its reserve returns to the house; holdings run on. */
export type CloseProductCommand = { type: 'closeProduct'; productId: number };

/** A miner's amount per unit for a day that has not started yet (rate kind `recorded`). */
export type RecordMinerRateCommand = {
  type: 'recordMinerRate';
  productId: number;
  day: number;
  perUnit: bigint;
};

/** Buys whole tokens of a sale from the user's ico wallet. */
export type BuyIcoCommand = { type: 'buyIco'; userId: number; productId: number; quantity: number };

/** Rents units of a miner from the user's miner wallet. */
export type BuyMinerCommand = { type: 'buyMiner'; userId: number; productId: number; quantity: number };

/** Stakes whole coins from the user's defi wallet. */
export type StakeDefiCommand = { type: 'stakeDefi'; userId: number; productId: number; quantity: number };

/** Moves part of a rent's extractable earnings into the user's miner wallet. */
export type ExtractMinerEarningsCommand = {
  type: 'extractMinerEarnings';
  userId: number;
  holdingId: number;
  amount: bigint;
};

/** Leaves a defi stake early (policy `forfeit`): principal back, accrued earnings forfeited. */
export type ExitDefiStakeCommand = { type: 'exitDefiStake'; userId: number; holdingId: number };

/** Credits one ended day to every holding of a product that runs that day (the product's next day). */
export type AccrueProductDayCommand = { type: 'accrueProductDay'; productId: number; day: number };

/** Pays out up to `limit` defi stakes of a product whose last day has been accrued. */
export type MatureProductHoldingsCommand = {
  type: 'matureProductHoldings';
  productId: number;
  limit: number;
};

export type ProductsCommand =
  | CreateProductCommand
  | EditProductCommand
  | OpenProductCommand
  | CloseProductCommand
  | RecordMinerRateCommand
  | BuyIcoCommand
  | BuyMinerCommand
  | StakeDefiCommand
  | ExtractMinerEarningsCommand
  | ExitDefiStakeCommand
  | AccrueProductDayCommand
  | MatureProductHoldingsCommand;

export type CreateProductReply = { productId: number };
export type BuyProductReply = {
  holdingId: number;
  units: bigint;
  paid: bigint;
  fee: bigint;
  principal: bigint;
  daily: bigint;
  startDay: number;
  endDay: number;
};
export type ExtractReply = { amount: bigint; extractable: bigint };
export type ExitReply = { returned: bigint; forfeited: bigint };
export type AccrueReply = { holdings: number; amount: bigint; released: bigint };
export type MatureReply = { matured: number; remaining: number };
