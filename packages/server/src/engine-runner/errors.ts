// Errors the runner gives its callers. Each has a stable `code` so the gateway can map it to a translated
// message without parsing text; none of them carries a stack or SQL text to a client.

/** The runner does not accept commands: it is closing, closed, or stopped after a failure. */
export class RunnerUnavailableError extends Error {
  readonly code = 'engineUnavailable';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RunnerUnavailableError';
  }
}

/**
 * Too many commands wait for their commit, or the projector is too far behind the journal; the caller may
 * retry later with the same idempotency key.
 */
export class RunnerOverloadedError extends Error {
  readonly code = 'engineOverloaded';
  constructor(pendingCommands: number, waitingFor = 'their commit') {
    super(`${pendingCommands} commands are waiting for ${waitingFor}`);
    this.name = 'RunnerOverloadedError';
  }
}

/**
 * The command was not made durable. Whether it was applied is unknown to the caller only in one case: the
 * database failed after receiving COMMIT; a retry with the same idempotency key settles it either way.
 */
export class CommitFailedError extends Error {
  readonly code = 'engineCommitFailed';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CommitFailedError';
  }
}

/** The journal, a snapshot or the replayed state does not match what was recorded: refuse to serve. */
export class RecoveryError extends Error {
  readonly code = 'engineRecoveryFailed';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RecoveryError';
  }
}

/** Another writer appended to the journal: two runners on one database. */
export class JournalConflictError extends Error {
  readonly code = 'journalConflict';
  constructor(message: string) {
    super(message);
    this.name = 'JournalConflictError';
  }
}
