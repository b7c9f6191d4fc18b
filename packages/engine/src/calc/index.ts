// Shared formulas: pure bigint functions with one named-object parameter, imported by the engine, the
// server and the web (`@fairex/engine/calc`). Nothing here imports anything outside calc/, so the web
// bundle takes these functions and nothing else of the engine.
export { FLASH_DECIMALS, flashPayment, flashQuote } from './flash.ts';
export type { FlashQuote, FlashTerms } from './flash.ts';
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
  progressHundredths,
} from './products.ts';
