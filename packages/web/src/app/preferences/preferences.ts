import { createStore, useStore } from 'zustand';
import { readStored, writeStored } from '../../data/storage.ts';
import {
  DEFAULT_TIME_ZONE_CHOICE,
  isTimeZoneChoice,
  offsetLabel,
  offsetMinutes,
  zoneNameOf,
  type TimeZoneChoice,
} from '../../format/time-zone.ts';

// Display preferences kept in local storage: night mode (`night_mode`, '1' or '0') and which colour
// means "price went up" (`downUp`: 'green-up', the default, or 'red-up', the convention most zh, ko
// and ja readers expect). They are applied as attributes on the root element, from which the
// stylesheet derives `--fx-up` and `--fx-down` for every screen. The display time zone (`time_zone`:
// 'shanghai', the default, 'browser' or 'utc') is the one zone every screen writes times in.

export type PriceColours = 'green-up' | 'red-up';

export interface PreferencesState {
  nightMode: boolean;
  priceColours: PriceColours;
  timeZone: TimeZoneChoice;
  /** A short tone when one of the user's orders fills (`fill_sound`, '1' or '0'; off by default). */
  fillSound: boolean;
}

/** The stored display zone choice; the default when none (or junk) is stored. */
export function storedTimeZoneChoice(): TimeZoneChoice {
  const stored = readStored('time_zone');
  return isTimeZoneChoice(stored) ? stored : DEFAULT_TIME_ZONE_CHOICE;
}

function readPreferences(): PreferencesState {
  const night = readStored('night_mode');
  return {
    nightMode: night === '1' || night === 'true',
    priceColours: readStored('downUp') === 'red-up' ? 'red-up' : 'green-up',
    timeZone: storedTimeZoneChoice(),
    fillSound: readStored('fill_sound') === '1',
  };
}

export const preferencesStore = createStore<PreferencesState>(() => readPreferences());

export function usePreferences<T>(selector: (state: PreferencesState) => T): T {
  return useStore(preferencesStore, selector);
}

export function setNightMode(nightMode: boolean): void {
  writeStored('night_mode', nightMode ? '1' : '0');
  preferencesStore.setState({ nightMode });
}

export function setPriceColours(priceColours: PriceColours): void {
  writeStored('downUp', priceColours);
  preferencesStore.setState({ priceColours });
}

export function setFillSound(fillSound: boolean): void {
  writeStored('fill_sound', fillSound ? '1' : '0');
  preferencesStore.setState({ fillSound });
}

/**
 * Chooses the display zone. The page reloads, as it does for a language, so that every time on it (the
 * chart's axis, lists the server wrote in the zone the request named) is written again in the new zone.
 */
export function setTimeZoneChoice(timeZone: TimeZoneChoice): void {
  writeStored('time_zone', timeZone);
  preferencesStore.setState({ timeZone });
  globalThis.location?.reload();
}

/** The IANA name of the display zone. */
export function displayTimeZone(): string {
  return zoneNameOf(preferencesStore.getState().timeZone);
}

/** The display zone's offset as screens label it ("UTC+8"), at `atMs` (now by default). */
export function displayZoneLabel(atMs: number = Date.now()): string {
  return offsetLabel(offsetMinutes(displayTimeZone(), atMs));
}

/** Mirrors the preferences onto the root element; returns a function that stops following them. */
export function applyPreferencesToDocument(root: HTMLElement): () => void {
  const apply = ({ nightMode, priceColours }: PreferencesState): void => {
    root.dataset.theme = nightMode ? 'night' : 'day';
    root.dataset.priceColours = priceColours;
    root.style.colorScheme = nightMode ? 'dark' : 'light';
  };
  apply(preferencesStore.getState());
  return preferencesStore.subscribe(apply);
}
