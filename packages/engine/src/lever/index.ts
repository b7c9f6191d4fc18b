// The lever area (leveraged contracts against the house): commands, events, codes and queries.
export * from './codes.ts';
export type * from './commands.ts';
export type * from './events.ts';
export type * from './queries.ts';
