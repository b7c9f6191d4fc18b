// The public statistics area as a Fastify plugin: the home page's figures (registered users, trades in 24
// hours, listed markets) and the aggregate activity of the last hour for the home footer (counts only), each
// counted at most once per cache period per process, decorated as `app.stats`. Committed engine batches (deposits, withdrawals, trades)
// mark the activity out of date when the app runs the engine.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ActivityReply, HomeFiguresReply } from '@fairex/shared/api/site.ts';
import { countActivity, countHomeFigures } from './service.ts';

const FIGURES_CACHE_MS = 30_000;
const ACTIVITY_CACHE_MS = 10_000;
// New activity shows within a second of its commit, yet a busy exchange still costs at most one query a second.
const ACTIVITY_MIN_AGE_MS = 1_000;

export interface Cached<T> {
  get(): Promise<T>;
  /** Marks the value out of date; it is counted again once it is `minAgeMs` old. */
  invalidate(minAgeMs: number): void;
}

export interface StatsArea {
  figures: Cached<HomeFiguresReply>;
  /** Counts of the last hour's trades, traders, deposits and withdrawals. */
  activity: Cached<ActivityReply>;
}

declare module 'fastify' {
  interface FastifyInstance {
    stats: StatsArea;
  }
}

/** One value shared by concurrent callers and kept for `ttlMs` or until invalidated; a failure is not kept. */
function cached<T>(ttlMs: number, load: () => Promise<T>): Cached<T> {
  let entry: { value: Promise<T>; createdAtMs: number; expiresAtMs: number } | null = null;
  return {
    get() {
      const nowMs = Date.now();
      if (entry && entry.expiresAtMs > nowMs) return entry.value;
      const value = load();
      const current = { value, createdAtMs: nowMs, expiresAtMs: nowMs + ttlMs };
      entry = current;
      value.catch(() => {
        if (entry === current) entry = null;
      });
      return value;
    },
    invalidate(minAgeMs) {
      if (entry) entry.expiresAtMs = Math.min(entry.expiresAtMs, entry.createdAtMs + minAgeMs);
    },
  };
}

async function statsPlugin(app: FastifyInstance): Promise<void> {
  const figures = cached<HomeFiguresReply>(FIGURES_CACHE_MS, () => countHomeFigures(app.store, Date.now()));
  const activity = cached<ActivityReply>(ACTIVITY_CACHE_MS, () => countActivity(app.store, Date.now()));
  // Deposits, withdrawals and trades arrive as committed engine batches (when the app runs the engine).
  if (app.hasDecorator('runner')) {
    // On projected batches: the counts are read from the projection tables, written behind the journal.
    const stop = app.runner.onProjected(() => activity.invalidate(ACTIVITY_MIN_AGE_MS));
    app.addHook('onClose', async () => {
      stop();
    });
  }
  app.decorate('stats', { figures, activity });
}

export const statsAreaPlugin = fp(statsPlugin, { name: 'stats', dependencies: ['store'] });
