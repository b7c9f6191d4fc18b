// The one list of engine areas. A new area is a folder with an `area.ts` (see kernel/area.ts and
// docs/adding-an-area.md) added here; the kernel installs them in this order, which is also the order of
// their snapshot sections and of their hooks. Command, event and reply types are added to the unions in
// commands.ts and events.ts.
import type { AreaQueries } from './kernel/area.ts';
import { fundingArea } from './funding/area.ts';
import { ledgerArea } from './ledger/area.ts';
import { marketArea } from './market/area.ts';
import { microArea } from './micro/area.ts';
import { spotArea } from './spot/area.ts';

export const AREAS = [ledgerArea, spotArea, fundingArea, marketArea, microArea] as const;

/** `engine.ledger`, `engine.spot`, `engine.funding`, `engine.market`, `engine.micro`: each area's read-only queries. */
export type EngineQueries = AreaQueries<typeof AREAS>;
