import type { MicroCurrencyConfig, MicroOrder, MicroState } from './state.ts';
import { MAX_CURRENCY_ID } from '../limits.ts';

/** The configuration as the gateway reads it (copies; the state is never handed out). */
export type MicroConfigView = {
  seconds: { seconds: number; profitRatioBp: number }[];
  currencies: MicroCurrencyConfig[];
  caps: { marketId: number; currencyId: number; exposureCap: bigint }[];
  maxSampleAgeMs: number;
};

export function microConfigView(micro: MicroState): MicroConfigView {
  return {
    seconds: [...micro.seconds]
      .sort(([a], [b]) => a - b)
      .map(([seconds, profitRatioBp]) => ({ seconds, profitRatioBp })),
    currencies: [...micro.currencies.values()]
      .sort((a, b) => a.currencyId - b.currencyId)
      .map((c) => ({ ...c, presets: [...c.presets] })),
    caps: [...micro.caps]
      .sort(([a], [b]) => a - b)
      .map(([key, exposureCap]) => ({
        marketId: Math.floor(key / (MAX_CURRENCY_ID + 1)),
        currencyId: key % (MAX_CURRENCY_ID + 1),
        exposureCap,
      })),
    maxSampleAgeMs: micro.maxSampleAgeMs,
  };
}

export type MicroOrderView = Omit<MicroOrder, 'open' | 'stakeHold' | 'feeHold' | 'reserveHold'> & {
  open: MicroOrder['open'];
};

/** A running order (a copy without its holds), or undefined when it is settled or never existed. */
export function microOrderView(micro: MicroState, orderId: number): MicroOrderView | undefined {
  const order = micro.orders.get(orderId);
  if (order === undefined) return undefined;
  const { stakeHold: _stake, feeHold: _fee, reserveHold: _reserve, ...view } = order;
  return view;
}

/** The house's exposure per running bucket: pair, currency, expiry second, up and down profits. */
export function microExposureView(
  micro: MicroState,
): { marketId: number; currencyId: number; expirySecond: number; up: bigint; down: bigint }[] {
  return [...micro.buckets]
    .map(([key, bucket]) => {
      const [marketId, currencyId, second] = key.split(':').map(Number) as [number, number, number];
      return { marketId, currencyId, expirySecond: second, up: bucket.up, down: bucket.down };
    })
    .sort(
      (a, b) => a.expirySecond - b.expirySecond || a.marketId - b.marketId || a.currencyId - b.currencyId,
    );
}
