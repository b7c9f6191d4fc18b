// The one list of engine areas. A new area is a folder with an `area.ts` (see kernel/area.ts and
// docs/adding-an-area.md) added here; the kernel installs them in this order, which is also the order of
// their snapshot sections and of their hooks. Command, event and reply types are added to the unions in
// commands.ts and events.ts.
import type { AnyArea, AreaQueries } from './kernel/area.ts';
import { bind } from './kernel/ports.ts';
import type { PortBinding } from './kernel/ports.ts';
import { LEVER_PAIRS, LEVER_PRICES } from './lever/expected.ts';
import { LOG_LEVER, LOG_PAIRS } from './log/expected.ts';
import { PRICE_PAIRS } from './prices/expected.ts';
import { MICRO_PAIRS, MICRO_PRICES } from './micro/expected.ts';
import { PRICES_BOOK, SPOT_MARKS } from './ports/book-and-mark.ts';
import { freezeArea } from './freeze/area.ts';
import { fundingArea } from './funding/area.ts';
import { ledgerArea } from './ledger/area.ts';
import { pricesArea } from './prices/area.ts';
import { microArea } from './micro/area.ts';
import { leverArea } from './lever/area.ts';
import type { LeverResultCodeName } from './lever/codes.ts';
import { productsArea } from './products/area.ts';
import type { ProductsResultCode } from './products/codes.ts';
import { p2pArea } from './p2p/area.ts';
import type { P2pResultCode } from './p2p/codes.ts';
import type { MicroResultCode } from './micro/codes.ts';
import type { FreezeResultCode } from './kernel/freezes.ts';
import { resultCodeName as sharedResultCodeName } from './result-codes.ts';
import type { ResultCodeName as SharedResultCodeName } from './result-codes.ts';
import { spotArea } from './spot/area.ts';
import { logArea } from './log/area.ts';
import type { LogResultCodeName } from './log/codes.ts';
import type { SpotResultCodeName } from './spot/result-codes.ts';

export const AREAS = [
  ledgerArea,
  spotArea,
  fundingArea,
  pricesArea,
  microArea,
  leverArea,
  productsArea,
  p2pArea,
  freezeArea,
  logArea,
] as const;

/** `engine.ledger`, `engine.spot`, `engine.funding`, `engine.market`, `engine.micro`: each area's read-only queries. */
export type EngineQueries = AreaQueries<typeof AREAS>;

/**
 * Which area answers each port an area declares (kernel/ports.ts): the one place where areas meet. The
 * pairs are kept by spot (pairs/registry.ts), so spot's queries answer the pair ports; the compiler checks
 * here that each answer has the shape its reader declared.
 */
export const PORTS: readonly PortBinding<EngineQueries>[] = [
  bind(LEVER_PAIRS, (engine: EngineQueries) => engine.spot),
  bind(LEVER_PRICES, (engine: EngineQueries) => engine.market),
  bind(MICRO_PAIRS, (engine: EngineQueries) => engine.spot),
  bind(MICRO_PRICES, (engine: EngineQueries) => engine.market),
  bind(LOG_PAIRS, (engine: EngineQueries) => engine.spot),
  bind(LOG_LEVER, (engine: EngineQueries) => engine.lever),
  bind(PRICE_PAIRS, (engine: EngineQueries) => engine.spot),
  bind(PRICES_BOOK, (engine: EngineQueries) => engine.spot),
  bind(SPOT_MARKS, (engine: EngineQueries) => engine.market),
];

/** The name of any result code: the kernel's shared ones and every area's own (`resultCodes`). */
export type ResultCodeName =
  | SharedResultCodeName
  | SpotResultCodeName
  | keyof typeof MicroResultCode
  | LeverResultCodeName
  | keyof typeof ProductsResultCode
  | keyof typeof P2pResultCode
  | keyof typeof FreezeResultCode
  | LogResultCodeName;

const AREA_RESULT_CODE_NAMES = new Map<number, ResultCodeName>(
  AREAS.flatMap((area: AnyArea) =>
    Object.entries(area.resultCodes ?? {}).map(([name, code]): [number, ResultCodeName] => [
      code,
      name as ResultCodeName,
    ]),
  ),
);

/** The stable name of a code (`'insufficientFunds'` for 2000, `'postOnlyWouldTake'` for 3008); `'unknown'` otherwise. */
export function resultCodeName(code: number): ResultCodeName | 'unknown' {
  const shared = sharedResultCodeName(code);
  return shared === 'unknown' ? (AREA_RESULT_CODE_NAMES.get(code) ?? 'unknown') : shared;
}
