// The P2P payment-window job: when the engine's earliest unpaid deadline has passed, one `p2pTick` command,
// so unpaid orders are cancelled within about a second even when nothing else is submitted (the engine
// cancels them in its command-time hook, in the tick's envelope). Nothing is journaled while no deadline
// has passed.
import type { Command, Engine } from '@fairex/engine';

export interface P2pTickOptions {
  engine: Pick<Engine, 'p2p'>;
  submit(command: Command): Promise<unknown>;
  now?: () => number;
  intervalMs?: number;
  onError?(error: unknown): void;
}

export interface P2pTickJob {
  /** Checks once (the timer's step; tests and the bench call it directly). */
  check(): Promise<boolean>;
  stop(): Promise<void>;
}

export function startP2pTick(options: P2pTickOptions): P2pTickJob {
  const now = options.now ?? (() => Date.now());
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const check = async (): Promise<boolean> => {
    const next = options.engine.p2p.nextDeadlineMs();
    if (next === null || next > now() || running !== null) return false;
    running = options.submit({ type: 'p2pTick' });
    try {
      await running;
    } finally {
      running = null;
    }
    return true;
  };
  const timer = setInterval(() => {
    if (!stopped) check().catch((error: unknown) => options.onError?.(error));
  }, options.intervalMs ?? 250);
  timer.unref();
  return {
    check,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
