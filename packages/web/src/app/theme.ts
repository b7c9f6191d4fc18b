import { theme, type ThemeConfig } from 'antd';
import type { Language } from '../i18n/languages.ts';

// Colours shared by the antd theme and the stylesheet (src/styles/global.css repeats the page colours
// as CSS variables for non-antd elements). The brand blue reads well on both backgrounds.
export const BRAND_BLUE = '#2f6bff';
export const HEADER_BACKGROUND = '#0b0e17';

const PAGE = {
  day: { layout: '#f5f7fa', container: '#ffffff', border: '#e5e8ef' },
  night: { layout: '#0b0e14', container: '#141923', border: '#252c3a' },
};

// Han characters are drawn differently in Simplified Chinese, Traditional Chinese (Hong Kong),
// Korean and Japanese. Putting the reader's own CJK face first makes the browser use its glyphs.
const CJK_FONTS: Record<Language, string> = {
  en: '',
  zh: '"PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", ',
  hk: '"PingFang HK", "Microsoft JhengHei", "Noto Sans CJK HK", ',
  kr: '"Apple SD Gothic Neo", "Malgun Gothic", "Noto Sans CJK KR", ',
  jp: '"Hiragino Sans", "Yu Gothic", "Noto Sans CJK JP", ',
};

export function fontFamily(language: Language): string {
  return (
    '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Liberation Sans", ' +
    `${CJK_FONTS[language]}"Noto Sans", sans-serif`
  );
}

/** The class that carries the page theme's CSS variables (--ant-*). */
export const APP_THEME_CLASS = 'fx-theme';

export function buildTheme(nightMode: boolean, language: Language): ThemeConfig {
  const page = nightMode ? PAGE.night : PAGE.day;
  return {
    // A fixed class for the theme's CSS variables, so that the app's own elements (AppBase in Providers.tsx
    // carries it) can use antd's tokens, not only antd's components.
    cssVar: { key: APP_THEME_CLASS },
    algorithm: nightMode ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: {
      colorPrimary: BRAND_BLUE,
      colorInfo: BRAND_BLUE,
      colorSuccess: '#0ecb81',
      colorError: '#f6465d',
      colorBgLayout: page.layout,
      colorBgContainer: page.container,
      colorBorderSecondary: page.border,
      borderRadius: 8,
      fontFamily: fontFamily(language),
    },
    components: {
      Button: { fontWeight: 500 },
    },
  };
}

/** The header is dark in day and night mode alike; its own theme keeps its popups dark too. */
/** The class that carries the header theme's CSS variables, for the header's own menus. */
export const HEADER_THEME_CLASS = 'fx-header-theme';

export function buildHeaderTheme(language: Language): ThemeConfig {
  return {
    cssVar: { key: HEADER_THEME_CLASS },
    algorithm: theme.darkAlgorithm,
    token: {
      colorPrimary: BRAND_BLUE,
      colorBgElevated: '#1a202c',
      borderRadius: 8,
      fontFamily: fontFamily(language),
    },
  };
}
