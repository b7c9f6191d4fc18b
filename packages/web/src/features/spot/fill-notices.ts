import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { useMessage } from '../../app/message.tsx';
import { usePreferences } from '../../app/preferences/preferences.ts';
import { groupThousands } from '../../format/index.ts';
import { fetchCompleted, pairSymbol, type CompletedTrade, type Pair } from '../../data/spot.ts';

// Notices of one's own fills on the trading page: when a fill of the user's appears in the pair's
// latest trades (asked for again after every balance push, see SpotPage), a toast says what traded, and
// a short tone sounds when the reader turned that on (preference `fill_sound`). The trades already there
// when the page opened are not announced.

export const fillsKey = (pair: Pair) => ['spot', 'fills', pair.legalId, pair.currencyId] as const;

/** The fills in `latest` that are not in `seen`, oldest first (the list comes newest first). */
export function newFills(latest: readonly CompletedTrade[], seen: ReadonlySet<number>): CompletedTrade[] {
  return latest.filter((trade) => !seen.has(trade.id)).reverse();
}

export function useFillNotices(pair: Pair, loggedIn: boolean): void {
  const { t } = useTranslation();
  const message = useMessage();
  const sound = usePreferences((state) => state.fillSound);
  const fills = useQuery({
    queryKey: fillsKey(pair),
    queryFn: ({ signal }) => fetchCompleted(pair, 1, signal),
    enabled: loggedIn,
  });
  const seen = useRef<{ symbol: string; ids: Set<number> } | null>(null);
  const symbol = pairSymbol(pair);
  useEffect(() => {
    const list = fills.data?.list;
    if (list === undefined) return;
    if (seen.current === null || seen.current.symbol !== symbol) {
      seen.current = { symbol, ids: new Set(list.map((trade) => trade.id)) };
      return;
    }
    const fresh = newFills(list, seen.current.ids);
    for (const trade of fresh) {
      seen.current.ids.add(trade.id);
      void message.success(
        t(trade.type === 'in' ? 'spot.fills.bought' : 'spot.fills.sold', {
          amount: trade.number,
          base: trade.currency_name,
          price: groupThousands(trade.price),
          quote: trade.legal_name,
        }),
      );
    }
    if (fresh.length > 0 && sound) playFillTone();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new list alone announces.
  }, [fills.data]);
}

/** A short, quiet tone; nothing when the browser has no audio or refuses to play. */
export function playFillTone(): void {
  try {
    const audio = new AudioContext();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = 880;
    gain.gain.value = 0.06;
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + 0.12);
    oscillator.onended = () => void audio.close();
  } catch {
    // No sound is no harm: the toast says it already.
  }
}
