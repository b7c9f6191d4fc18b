// The keys the product keeps in the browser's local storage (spec 01, section 3). Every read and
// write of local storage goes through this module so that the list stays complete and typed.
export const STORED_KEYS = [
  'token',
  'accountNum',
  'user_id',
  'lang',
  'locale',
  'night_mode',
  'legal_id',
  'currency_id',
  'legal_name',
  'currency_name',
  'legal_id_cur',
  'downUp',
  'time_zone',
  'fill_sound',
  'favourite_pairs',
  'symbol',
  'shareNum',
  'priceScale',
  'index1',
  'index2',
  'is_seller',
  'lastPrice',
  'chart_indicators',
  'log_witness',
] as const;

export type StoredKey = (typeof STORED_KEYS)[number];

/**
 * Display preferences survive a logout: clearing them would switch a user's language and colours
 * back to the defaults at the very moment they log out, which reads as a fault.
 */
export const PREFERENCE_KEYS: readonly StoredKey[] = ['lang', 'locale', 'night_mode', 'downUp', 'time_zone', 'fill_sound', 'favourite_pairs', 'chart_indicators'];

// Local storage can throw (disabled storage, private modes, quota); the app then behaves as a
// fresh visitor instead of failing to start.
export function readStored(key: StoredKey): string | null {
  try {
    return globalThis.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: StoredKey, value: string): void {
  try {
    globalThis.localStorage.setItem(key, value);
  } catch {
    // Nothing sensible to do: the preference simply does not persist.
  }
}

export function removeStored(key: StoredKey): void {
  try {
    globalThis.localStorage.removeItem(key);
  } catch {
    // See writeStored.
  }
}

/**
 * What this browser witnessed of the exchange's transparency log (the log key seen first and the last
 * checkpoint verified, features/transparency/keeper.ts) is not the user's: it survives a logout too, or a
 * log that rewrote its history would only have to wait for the user to log out.
 */
export const KEPT_ON_LOGOUT: readonly StoredKey[] = [...PREFERENCE_KEYS, 'log_witness'];

/** Logout: forget everything the browser holds except the display preferences and the log witness. */
export function clearStoredExceptPreferences(): void {
  const kept = KEPT_ON_LOGOUT.map((key) => [key, readStored(key)] as const);
  try {
    globalThis.localStorage.clear();
  } catch {
    return;
  }
  for (const [key, value] of kept) if (value !== null) writeStored(key, value);
}
