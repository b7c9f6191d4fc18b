import { createStore, useStore } from 'zustand';
import { readStored, writeStored } from '../../data/storage.ts';
import type { Pair } from '../../data/spot.ts';

// The pair the trading centre shows. It is kept under the stored keys of spec 01 section 3 (legal_id,
// currency_id, legal_name, currency_name, symbol), which the market board writes too, so a pair picked
// anywhere opens here. Without a stored choice the page opens BTC/USDT (legal_id 3, currency_id 1,
// spec 01 section 9).

export const DEFAULT_PAIR: Pair = { legalId: 3, currencyId: 1, legalName: 'USDT', currencyName: 'BTC' };

const CODE = /^[A-Z0-9]{1,16}$/;

function storedId(key: 'legal_id' | 'currency_id'): number | null {
  const text = readStored(key);
  if (text === null || !/^\d{1,9}$/.test(text)) return null;
  const value = Number(text);
  return value > 0 ? value : null;
}

/** The stored pair, or the default when any part of it is missing or malformed. */
export function readStoredPair(): Pair {
  const legalId = storedId('legal_id');
  const currencyId = storedId('currency_id');
  const legalName = readStored('legal_name');
  const currencyName = readStored('currency_name');
  if (legalId === null || currencyId === null || legalName === null || currencyName === null)
    return DEFAULT_PAIR;
  if (!CODE.test(legalName) || !CODE.test(currencyName) || legalId === currencyId) return DEFAULT_PAIR;
  return { legalId, currencyId, legalName, currencyName };
}

export const pairStore = createStore<Pair>(() => readStoredPair());

export function usePair(): Pair {
  return useStore(pairStore);
}

function samePair(a: Pair, b: Pair): boolean {
  return a.legalId === b.legalId && a.currencyId === b.currencyId;
}

/** Picks a pair: stores it under the spec's keys and the page follows at once. */
export function choosePair(pair: Pair): void {
  writeStored('legal_id', String(pair.legalId));
  writeStored('currency_id', String(pair.currencyId));
  writeStored('legal_name', pair.legalName);
  writeStored('currency_name', pair.currencyName);
  writeStored('symbol', `${pair.currencyName}/${pair.legalName}`);
  if (!samePair(pairStore.getState(), pair)) pairStore.setState(pair, true);
}

/** Takes up a choice stored elsewhere since the store was made (the market board writes the same keys). */
export function syncPairFromStorage(): void {
  const stored = readStoredPair();
  if (!samePair(pairStore.getState(), stored)) pairStore.setState(stored, true);
}

/**
 * The pair a `symbol` query names ("BTC_USDT", "BTC/USDT", "btc-usdt"), as the server writes symbols
 * ("BTC/USDT"); null when it names none.
 */
export function symbolFromQuery(text: string | null): string | null {
  if (text === null) return null;
  const match = /^([A-Za-z0-9]{1,16})[_/-]([A-Za-z0-9]{1,16})$/.exec(text.trim());
  return match === null ? null : `${match[1]!.toUpperCase()}/${match[2]!.toUpperCase()}`;
}

/** How the page writes the pair into its address, so that a market can be linked: "BTC_USDT". */
export function symbolForQuery(symbol: string): string {
  return symbol.replace('/', '_');
}
