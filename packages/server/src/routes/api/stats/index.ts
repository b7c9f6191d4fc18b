// GET /api/stats/home: the home page's figures (registered users, trades in 24 hours, listed markets).
// GET /api/stats/activity: aggregate activity of the last hour for the home footer (counts only: never one
//                          user's deposit or trade, masked or not).
// Both are public and read by every visitor, so each is counted at most once per cache period per process.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { integer, ok, optional } from '@fairex/shared';
import { route } from '../../../http/route.ts';
import type { ActivityFigures, HomeFigures } from './service.ts';
import { countActivity, countHomeFigures } from './service.ts';

const FIGURES_CACHE_MS = 30_000;
const ACTIVITY_CACHE_MS = 10_000;
// New activity shows within a second of its commit, yet a busy exchange still costs at most one query a second.
const ACTIVITY_MIN_AGE_MS = 1_000;

interface Cached<T> {
  get(): Promise<T>;
  /** Marks the value out of date; it is counted again once it is `minAgeMs` old. */
  invalidate(minAgeMs: number): void;
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

export default async function statsRoutes(app: FastifyInstance): Promise<void> {
  const figures = cached<HomeFigures>(FIGURES_CACHE_MS, () => countHomeFigures(app.store, Date.now()));
  const activity = cached<ActivityFigures>(ACTIVITY_CACHE_MS, () => countActivity(app.store, Date.now()));
  // Deposits, withdrawals and trades arrive as committed engine batches (when the app runs the engine).
  if (app.hasDecorator('runner')) {
    const stop = app.runner.onCommitted(() => activity.invalidate(ACTIVITY_MIN_AGE_MS));
    app.addHook('onClose', async () => {
      stop();
    });
  }

  route(app, {
    method: 'GET',
    url: '/stats/home',
    handler: async () => ok(await figures.get()),
  });

  route(app, {
    method: 'GET',
    url: '/stats/activity',
    // `limit` was the old per-entry feed's; it is still accepted (and ignored) so old clients get an answer.
    input: z.object({ limit: optional(integer({ min: 1, max: 20 })) }),
    handler: async () => ok(await activity.get()),
  });
}
