import { createStore, useStore } from 'zustand';
import { readStored, writeStored } from '../../data/storage.ts';

// Display preferences kept in local storage: night mode (`night_mode`, '1' or '0') and which colour
// means "price went up" (`downUp`: 'green-up', the default, or 'red-up', the convention most zh, ko
// and ja readers expect). They are applied as attributes on the root element, from which the
// stylesheet derives `--fx-up` and `--fx-down` for every screen.

export type PriceColours = 'green-up' | 'red-up';

export interface PreferencesState {
  nightMode: boolean;
  priceColours: PriceColours;
}

function readPreferences(): PreferencesState {
  const night = readStored('night_mode');
  return {
    nightMode: night === '1' || night === 'true',
    priceColours: readStored('downUp') === 'red-up' ? 'red-up' : 'green-up',
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
