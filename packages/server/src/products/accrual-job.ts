// The daily accrual job (docs/products.md, "Accrual"): once a minute it submits one journaled
// `accrueProductDay` command per product and ended day not yet accrued, oldest first (so a server that was
// down catches up every missed day, each exactly once: the engine accepts only a product's next day), and
// then pays out the defi stakes whose last day has been accrued (`matureProductHoldings`, in batches). The
// engine sees only the commands' stamped times, so a replay of the journal gives the same state.
import type { Command, Engine, Outcome } from '@fairex/engine';
import { ProductsResultCode } from '@fairex/engine';

export interface AccrualSubmitter {
  readonly engine: Engine;
  submit(command: Command): Promise<Outcome>;
}

export const ACCRUAL_INTERVAL_MS = 60_000;
/** Stakes paid out per maturity command. */
export const MATURE_BATCH = 10_000;

export interface AccrualRun {
  accrued: number;
  matured: number;
}

/** Accrues every ended day of every product, then pays out every matured stake. */
export async function runDueAccruals(
  runner: AccrualSubmitter,
  nowMs: number = Date.now(),
): Promise<AccrualRun> {
  const run: AccrualRun = { accrued: 0, matured: 0 };
  for (;;) {
    const due = runner.engine.products.dueAccruals(nowMs);
    if (due.length === 0) break;
    let progressed = false;
    for (const { productId, day } of due) {
      const outcome = await runner.submit({ type: 'accrueProductDay', productId, day });
      if (outcome.code === 0) {
        run.accrued += 1;
        progressed = true;
      } else if (outcome.code !== ProductsResultCode.productDayNotDue) {
        throw new Error(`accrual of product ${productId} day ${day} refused (result code ${outcome.code})`);
      }
    }
    if (!progressed) break;
  }
  for (const productId of runner.engine.products.dueMaturities()) {
    for (;;) {
      const outcome = await runner.submit({ type: 'matureProductHoldings', productId, limit: MATURE_BATCH });
      if (outcome.code !== 0) break;
      const reply = outcome.reply as { matured: number; remaining: number };
      run.matured += reply.matured;
      if (reply.remaining === 0) break;
    }
  }
  return run;
}

export interface AccrualJob {
  /** Runs now (after the run in flight, if any). */
  runNow(): Promise<AccrualRun>;
  stop(): Promise<void>;
}

export function startAccrualJob(options: {
  runner: AccrualSubmitter;
  onError: (error: unknown) => void;
  intervalMs?: number;
  firstDelayMs?: number;
}): AccrualJob {
  let stopped = false;
  let running: Promise<AccrualRun> = Promise.resolve({ accrued: 0, matured: 0 });
  let timer: NodeJS.Timeout | undefined;
  const runNow = (): Promise<AccrualRun> => {
    running = running.catch(() => ({ accrued: 0, matured: 0 })).then(() => runDueAccruals(options.runner));
    return running;
  };
  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      runNow()
        .catch(options.onError)
        .finally(() => schedule(options.intervalMs ?? ACCRUAL_INTERVAL_MS));
    }, delayMs);
    timer.unref();
  };
  schedule(options.firstDelayMs ?? 5_000);
  return {
    runNow,
    stop: async () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      await running.catch(() => undefined);
    },
  };
}
