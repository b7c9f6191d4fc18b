// Shared formulas: pure bigint functions with one named-object parameter, imported by the engine, the
// server and the web (`@fairex/engine/calc`). Nothing here imports anything outside calc/, so the web
// bundle takes these functions and nothing else of the engine.
export { FLASH_DECIMALS, flashLargestAmount, flashPayment, flashQuote } from './flash.ts';
export type { FlashQuote, FlashTerms } from './flash.ts';
export {
  leverAtOrBelowThreshold,
  leverContractValue,
  leverEntryTicks,
  leverEntryTriggerTicks,
  leverFee,
  leverLiquidationTicks,
  leverMargin,
  leverOrderQuote,
  leverPositionLiquidationTicks,
  leverProfit,
  leverRiskRateBp,
} from './lever.ts';
export type { LeverCalcSide } from './lever.ts';
export {
  APR_DAYS,
  DAY_MS,
  PRODUCT_BP,
  dayOf,
  defiDaily,
  defiPromise,
  icoCost,
  minerCost,
  minerDaily,
  minerOutlook,
  progressHundredths,
} from './products.ts';
export type { MinerOutlook } from './products.ts';
export {
  P2P_DAY_MS,
  P2P_DAY_OFFSET_MS,
  p2pAmountForFiat,
  p2pDayOf,
  p2pFee,
  p2pFiatCents,
  p2pFloatingPrice,
  p2pNextDayStart,
} from './p2p.ts';
