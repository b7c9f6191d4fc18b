import type { LedgerCommand } from './ledger/commands.ts';
import type { FundingCommand } from './funding/commands.ts';
import type { SpotCommand } from './spot/commands.ts';
import type { MarketDataCommand } from './prices/commands.ts';
import type { MicroCommand } from './micro/commands.ts';
import type { LeverCommand } from './lever/commands.ts';
import type { ProductsCommand } from './products/commands.ts';
import type { P2pCommand } from './p2p/commands.ts';
import type { FreezeCommand } from './freeze/commands.ts';
import type { LogCommand } from './log/commands.ts';

export type * from './ledger/commands.ts';
export type * from './funding/commands.ts';
export type * from './pairs/commands.ts';
export type * from './spot/commands.ts';
export type * from './prices/commands.ts';
export type * from './micro/commands.ts';
export type * from './lever/commands.ts';

/** Every command the engine applies, discriminated on `type`. Each area adds its own union here. */
export type Command =
  | LedgerCommand
  | FundingCommand
  | SpotCommand
  | MarketDataCommand
  | MicroCommand
  | LeverCommand
  | ProductsCommand
  | P2pCommand
  | FreezeCommand
  | LogCommand;
export type * from './products/commands.ts';
export type * from './freeze/commands.ts';

export type * from './p2p/commands.ts';
export type * from './log/commands.ts';

export type CommandType = Command['type'];

/** A command as the runner journals it: stamped with a strictly increasing sequence number and a time. */
export type Envelope = { seq: number; timeMs: number; idempotencyKey?: string; command: Command };
