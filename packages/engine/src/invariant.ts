/**
 * Thrown only when the engine's own state is inconsistent: a bug, never bad input. The runner must stop
 * applying commands when it sees one, because the state that follows can no longer be trusted.
 */
export class EngineInvariantError extends Error {
  constructor(message: string) {
    super(`engine invariant violated: ${message}`);
    this.name = 'EngineInvariantError';
  }
}

/** Assertions stay on in production: a wrong balance is worse than a stopped engine. */
export function invariant(condition: boolean, message: string): asserts condition {
  if (!condition) throw new EngineInvariantError(message);
}

/**
 * Throws an EngineInvariantError. Hot paths write `if (!condition) fail(message)` so the message, which may
 * format bigints, is only built when the rule is broken.
 */
export function fail(message: string): never {
  throw new EngineInvariantError(message);
}
