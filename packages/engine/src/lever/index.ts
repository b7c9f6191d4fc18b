// The lever area (leveraged contracts against the house): commands, events, codes and queries.
export * from './codes.ts';
export type * from './commands.ts';
export type * from './events.ts';
export type * from './queries.ts';
export { leverArea } from './area.ts';
export { LeverState, LEVER_MAX_MARK_AGE_MS, LEVER_WALLET_INDEX, DAY_MS } from './state.ts';
export { checkLeverInvariants } from './invariants.ts';
export { LEVER_FEE_HOLDS, LEVER_MARGIN_HOLDS, INSURANCE_OWNER_KEY } from './handlers.ts';
