// Commands of the freeze area (docs/accounts.md, "Freezes").
import type { FreezeKind } from '../kernel/freezes.ts';

/**
 * Sets (`frozen` true) or lifts one kind of a user's freeze. An administrator's decision, journaled like any
 * command, so a replay meets the same refusals. Setting a kind already set, or lifting one not set, changes
 * nothing and is accepted (the server carries the freezes of its store into the engine at every start).
 */
export type SetUserFreezeCommand = {
  type: 'setUserFreeze';
  userId: number;
  kind: FreezeKind;
  frozen: boolean;
};

export type FreezeCommand = SetUserFreezeCommand;

/** The user's kinds after the command. */
export type SetUserFreezeReply = { userId: number; kinds: FreezeKind[] };
