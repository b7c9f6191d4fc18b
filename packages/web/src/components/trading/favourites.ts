import { createStore, useStore } from 'zustand';
import { readStored, writeStored } from '../../data/storage.ts';

// The reader's favourite pairs, kept in local storage (`favourite_pairs`, a JSON list of symbols such as
// "BTC/USDT") like the other preferences, so they survive a logout. The market list stars them and
// shows them together under its first tab.

const SYMBOL = /^[A-Z0-9]{1,16}\/[A-Z0-9]{1,16}$/;
const MAX_FAVOURITES = 100;

export function readFavourites(text: string | null): string[] {
  if (text === null) return [];
  try {
    const list: unknown = JSON.parse(text);
    if (!Array.isArray(list)) return [];
    const symbols = list.filter((item): item is string => typeof item === 'string' && SYMBOL.test(item));
    return [...new Set(symbols)].slice(0, MAX_FAVOURITES);
  } catch {
    return [];
  }
}

export const favouritesStore = createStore<string[]>(() => readFavourites(readStored('favourite_pairs')));

export function useFavourites(): string[] {
  return useStore(favouritesStore);
}

/** Stars or unstars a pair. */
export function toggleFavourite(symbol: string): void {
  const current = favouritesStore.getState();
  const next = current.includes(symbol)
    ? current.filter((item) => item !== symbol)
    : [...current, symbol].slice(0, MAX_FAVOURITES);
  writeStored('favourite_pairs', JSON.stringify(next));
  favouritesStore.setState(next, true);
}
