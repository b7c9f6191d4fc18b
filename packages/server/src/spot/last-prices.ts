// The last traded price per market, in ticks: the price of the latest trade with a user on at least one
// side, read once from the trades projection, then kept current from committed trade events. A market that
// never traded has no last price (undefined), and none is invented.
import type { Command, EngineEvent } from '@fairex/engine';
import { hasUserSide } from '@fairex/engine';
import type { CommittedBatch } from '../engine-runner/index.ts';
import type { Queryable } from '../store/index.ts';

/** Committed batches whose projections may not be written yet (the runner's unprojectedBatches). */
export type UnprojectedBatches = () => readonly CommittedBatch<Command, EngineEvent>[];

export class LastPrices {
  readonly #db: Queryable;
  readonly #unprojected: UnprojectedBatches;
  readonly #ticks = new Map<number, number>();
  /** Markets whose stored last trade has been read (or that traded since start). */
  readonly #known = new Set<number>();

  constructor(db: Queryable, unprojected: UnprojectedBatches = () => []) {
    this.#db = db;
    this.#unprojected = unprojected;
  }

  async get(marketId: number): Promise<number | undefined> {
    if (!this.#known.has(marketId)) {
      // Taken before the query: a trade the table does not hold yet is in these batches (after a restart,
      // the durable log's tail the projector is still writing); a later one is recorded as it commits.
      const pending = this.#unprojected();
      const { rows } = await this.#db.query<{ trade_id: bigint; price_ticks: bigint }>(
        `select trade_id, price_ticks from spot_trades where market_id = $1 and with_user
          order by trade_id desc limit 1`,
        [marketId],
      );
      // A trade committed while the query ran has already set the newer price; keep it.
      if (!this.#known.has(marketId)) {
        const row = rows[0];
        let tradeId = row === undefined ? 0 : Number(row.trade_id);
        if (row !== undefined) this.#ticks.set(marketId, Number(row.price_ticks));
        for (const batch of pending) {
          for (const { outcome } of batch.entries) {
            for (const event of outcome.events) {
              if (event.type !== 'trade' || event.marketId !== marketId || event.tradeId <= tradeId) continue;
              if (!hasUserSide(event)) continue;
              tradeId = event.tradeId;
              this.#ticks.set(marketId, event.priceTicks);
            }
          }
        }
        this.#known.add(marketId);
      }
    }
    return this.#ticks.get(marketId);
  }

  /** The latest committed trade's price, or undefined when it is not known without a query. */
  cached(marketId: number): number | undefined {
    return this.#ticks.get(marketId);
  }

  /** Called with each committed trade, in commit order. */
  record(marketId: number, priceTicks: number): void {
    this.#ticks.set(marketId, priceTicks);
    this.#known.add(marketId);
  }
}
