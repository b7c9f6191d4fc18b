// The last traded price per market, in ticks: the price of the latest trade with a user on at least one
// side, read once from the trades projection, then kept current from committed trade events. A market that
// never traded has no last price (undefined), and none is invented.
import type { Queryable } from '../store/index.ts';

export class LastPrices {
  readonly #db: Queryable;
  readonly #ticks = new Map<number, number>();
  /** Markets whose stored last trade has been read (or that traded since start). */
  readonly #known = new Set<number>();

  constructor(db: Queryable) {
    this.#db = db;
  }

  async get(marketId: number): Promise<number | undefined> {
    if (!this.#known.has(marketId)) {
      const { rows } = await this.#db.query<{ price_ticks: bigint }>(
        'select price_ticks from spot_trades where market_id = $1 and with_user order by trade_id desc limit 1',
        [marketId],
      );
      // A trade committed while the query ran has already set the newer price; keep it.
      if (!this.#known.has(marketId)) {
        const row = rows[0];
        if (row !== undefined) this.#ticks.set(marketId, Number(row.price_ticks));
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
