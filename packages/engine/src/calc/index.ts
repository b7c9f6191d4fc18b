// Shared formulas: pure bigint functions with one named-object parameter, imported by the engine, the
// server and the web (`@fairex/engine/calc`). Nothing here imports anything outside calc/, so the web
// bundle takes these functions and nothing else of the engine.
export { FLASH_DECIMALS, flashPayment, flashQuote } from './flash.ts';
export type { FlashQuote, FlashTerms } from './flash.ts';
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
