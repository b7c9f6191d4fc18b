// Chart colours for day and night. Rising and falling colours are the reader's preference: they are
// read from the page's --fx-up / --fx-down variables (set from the stored `downUp` choice), so the
// chart always agrees with every other price on the screen. The fallbacks are the stylesheet's own
// green and red, used where no stylesheet is loaded.

export interface ChartTheme {
  background: string;
  text: string;
  grid: string;
  border: string;
  crosshair: string;
  up: string;
  down: string;
  /** The realtime line. */
  line: string;
  /** The mark price line, apart from both the realtime line and the up/down colours. */
  mark: string;
  /** Volume bars are the up/down colours at this opacity, so candles stay in front. */
  volumeAlpha: number;
}

/** The stylesheet's --fx-green and --fx-red. */
export const FALLBACK_GREEN = '#0ecb81';
export const FALLBACK_RED = '#f6465d';

const DAY = {
  background: '#ffffff',
  text: 'rgba(15, 23, 42, 0.62)',
  grid: 'rgba(15, 23, 42, 0.06)',
  border: '#e5e8ef',
};
const NIGHT = {
  background: '#141923',
  text: 'rgba(255, 255, 255, 0.58)',
  grid: 'rgba(255, 255, 255, 0.05)',
  border: '#252c3a',
};

export interface ThemeInputs {
  nightMode: boolean;
  /** The stored preference; decides the fallbacks where the page's variables cannot be read. */
  redUp?: boolean;
  /** Resolved colours of --fx-up and --fx-down, or empty when the page has no stylesheet. */
  up: string;
  down: string;
}

export function buildChartTheme({ nightMode, redUp = false, up, down }: ThemeInputs): ChartTheme {
  const page = nightMode ? NIGHT : DAY;
  return {
    ...page,
    crosshair: nightMode ? 'rgba(255, 255, 255, 0.35)' : 'rgba(15, 23, 42, 0.35)',
    up: up.trim() || (redUp ? FALLBACK_RED : FALLBACK_GREEN),
    down: down.trim() || (redUp ? FALLBACK_GREEN : FALLBACK_RED),
    line: '#2f6bff',
    mark: nightMode ? '#f0b90b' : '#c98a00',
    volumeAlpha: nightMode ? 0.4 : 0.35,
  };
}

/** The theme for the page as it is now: preferences from the caller, colours from the root element. */
export function readChartTheme(root: HTMLElement, nightMode: boolean, redUp: boolean): ChartTheme {
  const style = getComputedStyle(root);
  return buildChartTheme({
    nightMode,
    redUp,
    up: style.getPropertyValue('--fx-up'),
    down: style.getPropertyValue('--fx-down'),
  });
}

/** A colour at an opacity: "#0ecb81" or "rgb(14, 203, 129)" becomes "rgba(14, 203, 129, 0.4)". */
export function withAlpha(colour: string, alpha: number): string {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour.trim());
  if (hex !== null) {
    const digits = hex[1] ?? '';
    const full = digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits;
    const [red, green, blue] = [0, 2, 4].map((start) => Number.parseInt(full.slice(start, start + 2), 16));
    return `rgba(${red}, ${green}, ${blue}, ${alpha})`;
  }
  const rgb = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/i.exec(colour.trim());
  if (rgb !== null) return `rgba(${rgb[1]}, ${rgb[2]}, ${rgb[3]}, ${alpha})`;
  return colour;
}
