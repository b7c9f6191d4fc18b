// The back-pressure stage: whether submit() takes one more command. Two bounds: the commands applied but not
// yet committed (the runner's group commit queue), and the committed commands the projector has not
// written (what a reader waits for and a restart re-projects).
import { RunnerOverloadedError } from '../errors.ts';
import type { RunnerSettings } from '../runner-options.ts';

export interface RunnerLoad {
  /** Applied commands waiting for their commit or being committed. */
  pendingCommands: number;
  /** Committed commands the projector has not written. */
  unprojectedCommands: number;
  /** Of those, the commands a restart took back from the durable log (never refused for). */
  recoveredUnprojected: number;
}

/** The refusal for one more command under `load`, or undefined when it is taken. */
export function backPressure(
  limits: Pick<RunnerSettings, 'maxPendingCommands' | 'projectorMaxLagCommands'>,
  load: RunnerLoad,
): RunnerOverloadedError | undefined {
  if (load.pendingCommands >= limits.maxPendingCommands)
    return new RunnerOverloadedError(load.pendingCommands);
  // The commands recovered from the durable log are not counted: however many they are, the start's own
  // commands (the catalogue's, the demo data's) must pass while the projector writes them.
  const lag = load.unprojectedCommands - load.recoveredUnprojected;
  if (lag > limits.projectorMaxLagCommands)
    return new RunnerOverloadedError(load.unprojectedCommands, 'their projections');
  return undefined;
}
