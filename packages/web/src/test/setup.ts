import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import en from '../i18n/locales/en.json';
import { initI18n } from '../i18n/index.ts';

// jsdom lacks the layout APIs antd's responsive components ask for; these stand-ins answer "no match"
// and observe nothing, which is what a page without layout would report.
if (typeof window !== 'undefined') {
  window.matchMedia ??= (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
  globalThis.ResizeObserver ??= class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
}

await initI18n('en', en);

// findBy* and waitFor wait for what a test waits for; on a loaded machine the first render of a whole page
// in jsdom can take longer than the library's one-second default, which would fail a test that is right.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  globalThis.localStorage?.clear();
});
