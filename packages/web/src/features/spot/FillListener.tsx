import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { MyFillPayload } from '@fairex/shared/socket-events.ts';
import { useMessage } from '../../app/message.tsx';
import { usePreferences } from '../../app/preferences/preferences.ts';
import { useSocketEvent } from '../../data/feeds.ts';
import { formatPrice } from '../../format/index.ts';
import { usePriceScales } from '../../data/market.ts';
import { playFillTone } from './fill-notices.ts';

// The listener of FillToasts.tsx, loaded only for a signed-in reader (it brings the realtime connection):
// each `my_fill` becomes one toast, and a tone when the reader turned that on.

const FILL_TOAST_KEY = 'my_fill';

/** The toast's words for one fill, its price at the pair's precision. */
export function fillText(t: TFunction, fill: MyFillPayload, priceScale: number | undefined): string {
  const [base = '', quote = ''] = fill.symbol.split('/');
  return t(fill.side === 'buy' ? 'spot.fills.boughtFee' : 'spot.fills.soldFee', {
    amount: fill.number,
    base,
    price: formatPrice(fill.price, priceScale),
    quote,
    fee: fill.fee,
    feeCurrency: fill.fee_currency,
  });
}

export default function FillListener() {
  const { t } = useTranslation();
  const message = useMessage();
  const sound = usePreferences((state) => state.fillSound);
  const scales = usePriceScales();
  /** A fill is announced once, even if it arrives again. */
  const seen = useRef(new Set<string>());
  useSocketEvent('my_fill', (fill: MyFillPayload) => {
    const id = `${fill.trade_id}:${fill.order_id}`;
    if (seen.current.has(id)) return;
    seen.current.add(id);
    // One fill toast at a time: a burst of fills (a bot's, a sweep of many orders) replaces it rather
    // than stacking toasts down over the page.
    void message.open({
      type: 'success',
      content: fillText(t, fill, scales.bySymbol(fill.symbol)),
      key: FILL_TOAST_KEY,
    });
    if (sound) playFillTone();
  });
  // A marker that the listener is in place (the flows wait for it before a fill they must see announced).
  return <span hidden data-testid="fill-notices" />;
}
