// The engine runner: the single writer that stamps, applies, journals and answers engine commands.
export { createEngineRunner, EXCHANGE_RUNNER_RHYTHM, exchangeRunnerSettings } from './create.ts';
export type { EngineRunnerOptions, ExchangeRunner } from './create.ts';
export type {
  CommittedBatch,
  CommittedEntry,
  RunnerEnvelope,
  RunnerLogger,
  RunnerOutcome,
  RunnerState,
} from './types.ts';
export type { EngineRunner, RunnerStats, SubmitOptions, WhenProjectedOptions } from './runner.ts';
export { whenCaughtUp } from './runner.ts';
export { awaitAcknowledged, awaitOwnWrites } from './read-your-writes.ts';
export {
  CommitFailedError,
  JournalConflictError,
  RecoveryError,
  RunnerOverloadedError,
  RunnerUnavailableError,
} from './errors.ts';
export { rebuildProjections } from './rebuild.ts';
export type { RebuildResult } from './rebuild.ts';
export { engineKit } from './engine-kit.ts';
export { bulkModeOf, insertRows, ownerKey } from './projector.ts';
export type { BulkMode, Projector, ProjectionTransaction, TableRows } from './projector.ts';
export { engineRunnerPlugin } from './plugin.ts';
export type { EngineRunnerPluginOptions } from './plugin.ts';
export { compactJournal, scheduleJournalRetention } from './retention.ts';
export type { CompactJournalOptions, CompactJournalResult, RetentionMode } from './retention.ts';
