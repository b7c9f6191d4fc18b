// The micro (seconds contracts) area: configuration, submit, settlement on the recorded mark price.
export * from './rules.ts';
export * from './codes.ts';
export type * from './commands.ts';
export type * from './events.ts';
export { MicroState, DEFAULT_MICRO_MAX_SAMPLE_AGE_MS } from './state.ts';
export type { MicroCurrencyConfig, MicroOrder } from './state.ts';
export * from './handlers.ts';
export { writeMicroSection, readMicroSection } from './snapshot.ts';
export type { MicroSnapshotSection } from './snapshot.ts';
export { checkMicroInvariants } from './invariants.ts';
export { microArea } from './area.ts';
export type { MicroExposureView, MicroQueries } from './area.ts';
export { microConfigView, microOrderView, microExposureView } from './reads.ts';
export type { MicroConfigView, MicroOrderView } from './reads.ts';
