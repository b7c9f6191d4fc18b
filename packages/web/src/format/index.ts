// Number display for every screen: decimal strings in, text out, no money in a JavaScript number.
export {
  NO_VALUE,
  compareDecimals,
  directionOf,
  groupThousands,
  readDecimal,
  roundedText,
  type Direction,
  type ExactDecimal,
} from './decimal-text.ts';
export { compactUnits, formatCompact, formatFixed, formatPercent, formatPrice } from './numbers.ts';
