import {
  CandlestickSeries,
  ColorType,
  CrosshairMode,
  HistogramSeries,
  LineSeries,
  LineStyle,
  createChart,
  createSeriesMarkers,
  type CandlestickData,
  type IPriceLine,
  type ISeriesMarkersPluginApi,
  type SeriesMarker,
  type ChartOptions,
  type DeepPartial,
  type HistogramData,
  type IChartApi,
  type ISeriesApi,
  type LineData,
  type MouseEventParams,
  type Time,
  type UTCTimestamp,
  type WhitespaceData,
} from 'lightweight-charts';
import { divideRounded, formatDecimal, pow10 } from '@fairex/shared/decimal.ts';
import {
  compareDecimals,
  directionOf,
  formatCompact,
  formatFixed,
  formatPercent,
  readDecimal,
  type Direction,
} from '../format/index.ts';
import type { Language } from '../i18n/languages.ts';
import { chartTimeFormatter, toChartTime } from './chart-time.ts';
import {
  AVERAGE_PERIODS,
  bollinger,
  ema,
  macd,
  sma,
  type Indicator,
  type IndicatorLine,
} from './indicators.ts';
import { withAlpha, type ChartTheme } from './chart-theme.ts';
import { BAR_LENGTH_MS, barPeriodOf, isIntraday, type ChartPeriod } from './periods.ts';

// The chart lives outside React. React creates one ChartModel when the chart's element mounts and
// removes it when the element unmounts; everything else (theme, language, interval, data) is applied
// to the living chart with applyOptions, setData and update, so the reader's zoom and scroll survive
// a theme or colour change, and a live bar costs one update() call and no React render.

/** A bar as the server sends it: open time in epoch milliseconds and exact decimal strings. */
export interface Candle {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  /**
   * Where the bar comes from: 'trades' for this exchange's trades; 'index' for the recorded index price
   * before the pair's first trade; otherwise the price source whose history filled the chart before the
   * exchange started ('simulated', 'binance'). The legend says so.
   */
  source?: string;
}

export interface LegendLabels {
  open: string;
  high: string;
  low: string;
  close: string;
  change: string;
  volume: string;
  /** Note on a bar of the simulator's made-up history. */
  simulated: string;
  /** Lead-in to the name of the source of imported history ("History from"). */
  imported: string;
  /** Note on a bar drawn from the recorded index price before the pair's first trade. */
  index: string;
  /** Label of the mark price line. */
  mark: string;
  /** Note when the interval has the mark price but no trades. */
  markOnly: string;
  /** The Bollinger bands' lines in the indicator legend (upper, middle, lower). */
  bollUpper: string;
  bollMiddle: string;
  bollLower: string;
  /** MACD's lines in the indicator legend: DIF, DEA and their difference. */
  macdDif: string;
  macdDea: string;
  macdHistogram: string;
}

/** A bar of the mark price (docs/price-record.md): open time in epoch milliseconds, exact strings. */
export interface MarkCandle {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
}

/**
 * A moment marked on the price chart (a seconds contract's open or expiry, say): drawn as a series marker
 * on the bar that holds it, or left out while no bar holds it yet (a moment still to come).
 */
export interface ChartMoment {
  /** Stable key: "12-open". */
  key: string;
  /** Epoch milliseconds. */
  timeMs: number;
  shape: 'arrowUp' | 'arrowDown' | 'circle';
  position: 'aboveBar' | 'belowBar';
  /** The reader's rising or falling colour, or the chart's neutral line colour. */
  tone: 'up' | 'down' | 'neutral';
  /** Translated label drawn beside the marker. */
  text: string;
}

/** A horizontal price line with a translated title (a running contract's open price, say). */
export interface ChartLevel {
  key: string;
  /** Decimal text as the server sent it; drawn only, never computed with. */
  price: string;
  tone: 'up' | 'down' | 'neutral';
  title: string;
}

export interface ChartModelOptions {
  theme: ChartTheme;
  /** BCP 47 tag for dates on the axis and the crosshair. */
  locale: string;
  /** Interface language, for volume units (万/亿 or K/M/B). */
  language: Language;
  period: ChartPeriod;
  /** An empty element the model fills with the OHLC legend of the hovered or latest bar. */
  legend?: HTMLElement | null;
  legendLabels?: LegendLabels;
  /** Indicators shown from the start (charts/indicators.ts); the volume bars alone by default. */
  indicators?: readonly Indicator[];
}

export type ChartFactory = (container: HTMLElement, options: DeepPartial<ChartOptions>) => IChartApi;

const VOLUME_SCALE = 'volume';
/** Line colours of the indicators, readable on the day and the night background alike. */
const AVERAGE_COLOURS = ['#f0b90b', '#e040fb', '#2196f3'] as const;
const BOLL_COLOURS = { middle: '#f0b90b', band: '#9c6ade' } as const;
const MACD_COLOURS = { macd: '#2196f3', signal: '#f0b90b' } as const;
/** The MACD pane's height beside the price pane's (lightweight-charts stretch factors). */
const MACD_PANE_STRETCH = 0.3;
type IndicatorLineKey =
  | `ma${(typeof AVERAGE_PERIODS)[number]}`
  | `ema${(typeof AVERAGE_PERIODS)[number]}`
  | 'bollUpper'
  | 'bollMiddle'
  | 'bollLower';

interface MacdSeries {
  macd: ISeriesApi<'Line'>;
  signal: ISeriesApi<'Line'>;
  histogram: ISeriesApi<'Histogram'>;
}
/** One line of a chosen indicator as the legend names it, with its colour and its values by bar. */
interface IndicatorReading {
  label: string;
  colour: string;
  line: IndicatorLine;
}

/** Price precision is read from the server's strings; this caps it for very small prices. */
const MAX_PRECISION = 8;
const LEGEND_FIELDS = ['time', 'open', 'high', 'low', 'close', 'change', 'volume', 'mark', 'note'] as const;
/** The legend items that describe a trade bar, hidden where the interval has only the mark price. */
const TRADE_FIELDS: ReadonlySet<LegendField> = new Set(['open', 'high', 'low', 'close', 'change', 'volume']);
type LegendField = (typeof LEGEND_FIELDS)[number];

/**
 * Display only: lightweight-charts positions pixels from JavaScript numbers. The value goes to the
 * canvas and nowhere else; every number shown as text (legend, tables) is formatted from the string.
 */
function plotNumber(text: string): number {
  return Number(text);
}

/** An indicator's value as text at `decimals` places, rounded half up; for the legend only (display). */
function plotText(value: number, decimals: number): string {
  if (!Number.isFinite(value)) return formatFixed(null, decimals);
  const factor = 10 ** decimals;
  const rounded = Math.sign(value) * Math.round(Math.abs(value) * factor);
  const sign = rounded < 0 ? '-' : '';
  const digits = String(Math.abs(rounded)).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  return formatFixed(`${sign}${whole}${decimals > 0 ? `.${digits.slice(-decimals)}` : ''}`, decimals);
}

function decimalsOf(text: string): number {
  const value = readDecimal(text);
  return value === null ? 0 : value.scale;
}

function isPlottable(candle: Candle): boolean {
  return [candle.open, candle.high, candle.low, candle.close, candle.volume].every(
    (text) => readDecimal(text) !== null,
  );
}

export class ChartModel {
  private readonly chart: IChartApi;
  private readonly candleSeries: ISeriesApi<'Candlestick'>;
  private readonly lineSeries: ISeriesApi<'Line'>;
  private readonly volumeUp: ISeriesApi<'Histogram'>;
  private readonly volumeDown: ISeriesApi<'Histogram'>;
  private readonly markSeries: ISeriesApi<'Line'>;
  /** The MA, EMA and BOLL lines on the price pane, hidden unless their indicator is chosen. */
  private readonly indicatorLines = new Map<IndicatorLineKey, ISeriesApi<'Line'>>();
  /** MACD's own pane (index 1), made when MACD is chosen and removed with its series when it is not. */
  private macdSeries: MacdSeries | null = null;
  private indicators = new Set<Indicator>(['vol']);
  /** The bars on screen by chart time, for the legend, which shows exact strings. */
  private readonly shown = new Map<number, Candle>();
  /** The mark price's closes on screen by chart time. */
  private readonly marks = new Map<number, MarkCandle>();
  private lastTime: number | null = null;
  private lastMarkTime: number | null = null;
  private precision = 2;
  private period: ChartPeriod;
  private locale: string;
  private language: Language;
  private theme: ChartTheme;
  private readonly legend: HTMLElement | null;
  private legendLabels: LegendLabels | null;
  private readonly legendCells = new Map<LegendField, HTMLElement>();
  /** The legend's second row: the chosen indicators' values at the legend's bar. */
  private indicatorRow: HTMLElement | null = null;
  /** The chosen indicators' lines as last drawn, and the index of each bar's time in them. */
  private readings: IndicatorReading[] = [];
  private readonly readingIndex = new Map<number, number>();
  private hoveredTime: number | null = null;
  private formatTime: (chartTime: number) => string;
  private removed = false;
  private moments: readonly ChartMoment[] = [];
  private levels: readonly ChartLevel[] = [];
  private momentPlugins: ISeriesMarkersPluginApi<Time>[] | null = null;
  private readonly container: HTMLElement;
  private levelLines: { series: ISeriesApi<'Candlestick'> | ISeriesApi<'Line'>; line: IPriceLine }[] = [];

  constructor(container: HTMLElement, options: ChartModelOptions, factory: ChartFactory = createChart) {
    this.container = container;
    this.period = options.period;
    this.locale = options.locale;
    this.language = options.language;
    this.theme = options.theme;
    this.legend = options.legend ?? null;
    this.legendLabels = options.legendLabels ?? null;
    this.formatTime = chartTimeFormatter(isIntraday(this.period));
    const fixed: DeepPartial<ChartOptions> = {
      autoSize: true,
      layout: { attributionLogo: true },
      crosshair: { mode: CrosshairMode.Normal },
      rightPriceScale: { scaleMargins: { top: 0.08, bottom: 0.24 } },
      timeScale: { rightOffset: 6, secondsVisible: false },
    };
    this.chart = factory(container, mergeOptions(fixed, this.themeOptions(), this.timeOptions()));
    this.candleSeries = this.chart.addSeries(CandlestickSeries, { priceLineVisible: true });
    this.lineSeries = this.chart.addSeries(LineSeries, { lineWidth: 2, priceLineVisible: true });
    const volume = {
      priceScaleId: VOLUME_SCALE,
      priceFormat: { type: 'volume' as const },
      lastValueVisible: false,
      priceLineVisible: false,
    };
    this.volumeUp = this.chart.addSeries(HistogramSeries, volume);
    this.volumeDown = this.chart.addSeries(HistogramSeries, volume);
    this.chart.priceScale(VOLUME_SCALE).applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    this.markSeries = this.chart.addSeries(LineSeries, {
      lineWidth: 1,
      lineStyle: LineStyle.Dashed,
      priceLineVisible: false,
      crosshairMarkerVisible: false,
    });
    const indicatorLine = (color: string) =>
      this.chart.addSeries(LineSeries, {
        color,
        lineWidth: 1,
        priceLineVisible: false,
        lastValueVisible: false,
        crosshairMarkerVisible: false,
        visible: false,
      });
    AVERAGE_PERIODS.forEach((period, i) => {
      this.indicatorLines.set(`ma${period}`, indicatorLine(AVERAGE_COLOURS[i]!));
    });
    AVERAGE_PERIODS.forEach((period, i) => {
      const line = indicatorLine(AVERAGE_COLOURS[i]!);
      line.applyOptions({ lineStyle: LineStyle.Dashed });
      this.indicatorLines.set(`ema${period}`, line);
    });
    this.indicatorLines.set('bollUpper', indicatorLine(BOLL_COLOURS.band));
    this.indicatorLines.set('bollMiddle', indicatorLine(BOLL_COLOURS.middle));
    this.indicatorLines.set('bollLower', indicatorLine(BOLL_COLOURS.band));
    this.applySeriesTheme();
    this.applyPeriodVisibility();
    this.setIndicators(options.indicators ?? ['vol']);
    this.chart.subscribeCrosshairMove(this.onCrosshairMove);
    this.buildLegend();
  }

  /** Colours for day or night and for the up/down preference; zoom, scroll and data stay. */
  setTheme(theme: ChartTheme): void {
    if (this.removed) return;
    this.theme = theme;
    this.chart.applyOptions(this.themeOptions());
    this.applySeriesTheme();
    this.drawMarks();
  }

  /** Language of dates and volume units; zoom, scroll and data stay. */
  setLocale(locale: string, language: Language): void {
    if (this.removed) return;
    this.locale = locale;
    this.language = language;
    this.chart.applyOptions(this.timeOptions());
    this.renderLegend();
  }

  setLegendLabels(labels: LegendLabels): void {
    if (this.removed) return;
    this.legendLabels = labels;
    this.buildLegend();
  }

  /**
   * Switches to another interval or market: the bars on screen belong to the old one, so they go at
   * once (an empty chart is honest; old bars under a new label are not) until setHistory brings the
   * new ones.
   */
  reset(period: ChartPeriod): void {
    if (this.removed) return;
    this.period = period;
    this.shown.clear();
    this.marks.clear();
    this.lastTime = null;
    this.lastMarkTime = null;
    this.hoveredTime = null;
    for (const series of this.allSeries()) series.setData([]);
    this.drawMarks();
    this.applyPeriodVisibility();
    this.chart.applyOptions(this.timeOptions());
    this.renderLegend();
  }

  /** Replaces every bar (a new market or interval); the view returns to the latest bars. */
  setHistory(candles: readonly Candle[]): void {
    if (this.removed) return;
    const bars = normaliseBars(candles);
    this.shown.clear();
    for (const bar of bars) this.shown.set(toChartTime(bar.time), bar);
    this.lastTime = bars.length === 0 ? null : toChartTime(bars[bars.length - 1]!.time);
    this.setPrecision(
      bars.reduce((most, bar) => Math.max(most, decimalsOf(bar.close), decimalsOf(bar.open)), 0),
    );
    this.candleSeries.setData(bars.map(candleData));
    this.lineSeries.setData(bars.map(lineData));
    this.volumeUp.setData(bars.map((bar) => volumeData(bar, true)));
    this.volumeDown.setData(bars.map((bar) => volumeData(bar, false)));
    this.drawIndicators(false);
    this.drawMarks();
    this.chart.timeScale().resetTimeScale();
    this.renderLegend();
  }

  /**
   * Shows one bar: a new latest bar, or the latest bar again with new values. Older bars are already
   * final on screen and the chart cannot insert behind its last bar, so they are left alone.
   */
  pushBar(candle: Candle): boolean {
    if (this.removed || !isPlottable(candle)) return false;
    const time = toChartTime(candle.time);
    if (this.lastTime !== null && time < this.lastTime) return false;
    const newBar = this.lastTime !== time;
    this.lastTime = time;
    this.shown.set(time, candle);
    const decimals = Math.max(decimalsOf(candle.close), decimalsOf(candle.open));
    if (decimals > this.precision) this.setPrecision(decimals);
    this.candleSeries.update(candleData(candle));
    this.lineSeries.update(lineData(candle));
    this.volumeUp.update(volumeData(candle, true));
    this.volumeDown.update(volumeData(candle, false));
    this.drawIndicators(true);
    // A new bar may hold a marked moment that no bar held before.
    if (newBar && this.moments.length > 0) this.drawMarks();
    if (this.hoveredTime === null) this.renderLegend();
    return true;
  }

  /**
   * Marks moments (series markers) and price levels (price lines) on the candles and on the realtime line,
   * whichever the interval shows. A moment sits on the bar that holds it; one that no bar holds yet is drawn
   * once its bar arrives.
   */
  setMarks(moments: readonly ChartMoment[], levels: readonly ChartLevel[]): void {
    if (this.removed) return;
    this.moments = moments;
    this.levels = levels;
    this.drawMarks();
  }

  /**
   * Where each moment is drawn: on the trade bar that holds it (candles and the realtime line), else on the
   * mark price bar that holds it (the mark line moves with the price record even while nobody trades), else
   * nowhere yet.
   */
  private placedMoments(): { onBars: SeriesMarker<Time>[]; onMarks: SeriesMarker<Time>[] } {
    const onBars: SeriesMarker<Time>[] = [];
    const onMarks: SeriesMarker<Time>[] = [];
    if (this.moments.length === 0) return { onBars, onMarks };
    const barSeconds = BAR_LENGTH_MS[barPeriodOf(this.period)] / 1000;
    const barTimes = [...this.shown.keys()];
    const markTimes = [...this.marks.keys()];
    for (const moment of this.moments) {
      const at = toChartTime(moment.timeMs);
      const marker = (time: number): SeriesMarker<Time> => ({
        time: time as UTCTimestamp,
        position: moment.position,
        shape: moment.shape,
        color: this.toneColour(moment.tone),
        text: moment.text,
        id: moment.key,
      });
      const onBar = holdingTime(barTimes, at, barSeconds);
      if (onBar !== null) onBars.push(marker(onBar));
      else {
        const onMark = holdingTime(markTimes, at, barSeconds);
        if (onMark !== null) onMarks.push(marker(onMark));
      }
    }
    const byTime = (a: SeriesMarker<Time>, b: SeriesMarker<Time>) => (a.time as number) - (b.time as number);
    return {
      onBars: thinLabels(onBars.sort(byTime), barSeconds),
      onMarks: thinLabels(onMarks.sort(byTime), barSeconds),
    };
  }

  private toneColour(tone: ChartMoment['tone']): string {
    return tone === 'up' ? this.theme.up : tone === 'down' ? this.theme.down : this.theme.line;
  }

  private drawMarks(): void {
    if (this.removed) return;
    const { onBars, onMarks } = this.placedMoments();
    if (this.momentPlugins === null && onBars.length + onMarks.length > 0)
      this.momentPlugins = [
        createSeriesMarkers(this.candleSeries, []),
        createSeriesMarkers(this.lineSeries, []),
        createSeriesMarkers(this.markSeries, []),
      ];
    if (this.momentPlugins !== null) {
      const [candles, line, mark] = this.momentPlugins;
      candles?.setMarkers(onBars);
      line?.setMarkers(onBars);
      mark?.setMarkers(onMarks);
    }
    // What is drawn, readable without the canvas (end-to-end checks, assistive text).
    this.container.dataset.marks = [...onBars, ...onMarks].map((marker) => marker.id).join(' ');
    for (const { series, line } of this.levelLines) series.removePriceLine(line);
    this.levelLines = [];
    for (const level of this.levels) {
      const price = Number(level.price);
      if (!Number.isFinite(price) || price <= 0) continue;
      for (const series of [this.candleSeries, this.lineSeries])
        this.levelLines.push({
          series,
          line: series.createPriceLine({
            price,
            color: this.toneColour(level.tone),
            lineWidth: 1,
            lineStyle: LineStyle.Dashed,
            axisLabelVisible: true,
            title: level.title,
          }),
        });
    }
    this.container.dataset.levels = this.levels.map((level) => level.key).join(' ');
  }

  /**
   * Shows the chosen indicators and hides the others (VOL hides the volume bars; MACD opens or closes
   * its own pane). Zoom, scroll and bars stay.
   */
  setIndicators(chosen: readonly Indicator[]): void {
    if (this.removed) return;
    this.indicators = new Set(chosen);
    const on = (indicator: Indicator) => this.indicators.has(indicator);
    for (const [key, series] of this.indicatorLines) {
      const indicator: Indicator = key.startsWith('ema') ? 'ema' : key.startsWith('ma') ? 'ma' : 'boll';
      series.applyOptions({ visible: on(indicator) });
    }
    this.volumeUp.applyOptions({ visible: on('vol') });
    this.volumeDown.applyOptions({ visible: on('vol') });
    if (on('macd') && this.macdSeries === null) {
      const line = (color: string) =>
        this.chart.addSeries(
          LineSeries,
          { color, lineWidth: 1, priceLineVisible: false, crosshairMarkerVisible: false },
          1,
        );
      this.macdSeries = {
        histogram: this.chart.addSeries(
          HistogramSeries,
          { priceLineVisible: false, lastValueVisible: false },
          1,
        ),
        macd: line(MACD_COLOURS.macd),
        signal: line(MACD_COLOURS.signal),
      };
      this.chart.panes()[1]?.setStretchFactor(MACD_PANE_STRETCH);
      this.chart.panes()[0]?.setStretchFactor(1 - MACD_PANE_STRETCH);
    } else if (!on('macd') && this.macdSeries !== null) {
      // Removing a pane's last series removes the pane.
      for (const series of Object.values(this.macdSeries)) this.chart.removeSeries(series);
      this.macdSeries = null;
    }
    this.drawIndicators(false);
    this.renderLegend();
  }

  /** The indicators on screen. */
  shownIndicators(): Indicator[] {
    return [...this.indicators];
  }

  /** Replaces the mark price line (a new market or interval). */
  setMarkHistory(bars: readonly MarkCandle[]): void {
    if (this.removed) return;
    const byTime = new Map<number, MarkCandle>();
    for (const bar of bars) if (readDecimal(bar.close) !== null) byTime.set(toChartTime(bar.time), bar);
    const sorted = [...byTime.entries()].sort(([a], [b]) => a - b);
    this.marks.clear();
    for (const [time, bar] of sorted) this.marks.set(time, bar);
    this.lastMarkTime = sorted.length === 0 ? null : sorted[sorted.length - 1]![0];
    const decimals = sorted.reduce((most, [, bar]) => Math.max(most, decimalsOf(bar.close)), 0);
    if (decimals > this.precision) this.setPrecision(decimals);
    this.markSeries.setData(
      sorted.map(([time, bar]) => ({ time: time as UTCTimestamp, value: plotNumber(bar.close) })),
    );
    if (this.lastTime === null) this.chart.timeScale().resetTimeScale();
    this.drawMarks();
    this.renderLegend();
  }

  /**
   * The mark price as a push or a poll brought it (a `daymarket` ticker, the latest sample): moves the close
   * of the mark bar that holds `timeMs`, or opens the next one, aligned on the bars the server sent; the
   * catch-up pulse later replaces it with the recorded bar. Nothing is drawn before the mark history loaded.
   */
  showLiveMark(price: string, timeMs: number): boolean {
    if (this.removed || this.lastMarkTime === null) return false;
    const value = readDecimal(price);
    const last = this.marks.get(this.lastMarkTime);
    if (value === null || last === undefined || timeMs < last.time) return false;
    const length = BAR_LENGTH_MS[barPeriodOf(this.period)];
    const steps = Math.floor((timeMs - last.time) / length);
    if (steps > 0)
      return this.pushMark({
        time: last.time + steps * length,
        open: price,
        high: price,
        low: price,
        close: price,
      });
    const above = (a: string, b: string) => compareDecimal(a, b) > 0;
    return this.pushMark({
      ...last,
      high: above(price, last.high) ? price : last.high,
      low: above(last.low, price) ? price : last.low,
      close: price,
    });
  }

  /** Shows one mark bar: a new latest one, or the latest again with a new close. Older ones are left. */
  pushMark(bar: MarkCandle): boolean {
    if (this.removed || readDecimal(bar.close) === null) return false;
    const time = toChartTime(bar.time);
    if (this.lastMarkTime !== null && time < this.lastMarkTime) return false;
    const newBar = this.lastMarkTime !== time;
    this.lastMarkTime = time;
    this.marks.set(time, bar);
    if (newBar && this.moments.length > 0) this.drawMarks();
    if (decimalsOf(bar.close) > this.precision) this.setPrecision(decimalsOf(bar.close));
    this.markSeries.update({ time, value: plotNumber(bar.close) });
    if (this.hoveredTime === null) this.renderLegend();
    return true;
  }

  /** The open time (epoch ms) of the latest mark bar on screen, or null while there is none. */
  latestMarkTime(): number | null {
    if (this.lastMarkTime === null) return null;
    return this.marks.get(this.lastMarkTime)?.time ?? null;
  }

  markCount(): number {
    return this.marks.size;
  }

  /** The open time (epoch ms) of the latest bar on screen, or null while there is none. */
  latestBarTime(): number | null {
    if (this.lastTime === null) return null;
    return this.shown.get(this.lastTime)?.time ?? null;
  }

  barCount(): number {
    return this.shown.size;
  }

  isRemoved(): boolean {
    return this.removed;
  }

  remove(): void {
    if (this.removed) return;
    this.removed = true;
    this.chart.unsubscribeCrosshairMove(this.onCrosshairMove);
    this.chart.remove();
    this.shown.clear();
    this.marks.clear();
    this.legend?.replaceChildren();
  }

  private allSeries(): Array<ISeriesApi<'Candlestick'> | ISeriesApi<'Line'> | ISeriesApi<'Histogram'>> {
    const macdSeries = this.macdSeries === null ? [] : Object.values(this.macdSeries);
    return [
      this.candleSeries,
      this.lineSeries,
      this.volumeUp,
      this.volumeDown,
      this.markSeries,
      ...this.indicatorLines.values(),
      ...macdSeries,
    ];
  }

  /**
   * Computes the chosen indicators over the closes on screen and draws them: every point, or after a
   * live bar only the latest (the earlier points of a moving window do not change). Display only: the
   * closes become numbers here, once, as the candles do (plotNumber); see charts/indicators.ts.
   */
  private drawIndicators(latestOnly: boolean): void {
    const bars = [...this.shown.entries()].sort(([a], [b]) => a - b);
    const times = bars.map(([time]) => time as UTCTimestamp);
    const closes = bars.map(([, bar]) => plotNumber(bar.close));
    const draw = (
      series: ISeriesApi<'Line'> | ISeriesApi<'Histogram'>,
      line: IndicatorLine,
      colour?: boolean,
    ) => {
      const point = (i: number) => {
        const value = line[i]!;
        if (value === null) return { time: times[i]! };
        if (colour !== true) return { time: times[i]!, value };
        const colourOf = value >= 0 ? this.theme.up : this.theme.down;
        return { time: times[i]!, value, color: withAlpha(colourOf, 0.7) };
      };
      if (!latestOnly) {
        series.setData(line.map((_, i) => point(i)));
        return;
      }
      if (line.length > 0) series.update(point(line.length - 1));
    };
    const on = (indicator: Indicator) => this.indicators.has(indicator);
    const labels = this.legendLabels;
    const readings: IndicatorReading[] = [];
    const read = (label: string | undefined, colour: string, line: IndicatorLine) => {
      if (label !== undefined) readings.push({ label, colour, line });
    };
    if (on('ma'))
      AVERAGE_PERIODS.forEach((period, i) => {
        const line = sma(closes, period);
        draw(this.indicatorLines.get(`ma${period}`)!, line);
        read(`MA${period}`, AVERAGE_COLOURS[i]!, line);
      });
    if (on('ema'))
      AVERAGE_PERIODS.forEach((period, i) => {
        const line = ema(closes, period);
        draw(this.indicatorLines.get(`ema${period}`)!, line);
        read(`EMA${period}`, AVERAGE_COLOURS[i]!, line);
      });
    if (on('boll')) {
      const bands = bollinger(closes);
      draw(this.indicatorLines.get('bollUpper')!, bands.upper);
      draw(this.indicatorLines.get('bollMiddle')!, bands.middle);
      draw(this.indicatorLines.get('bollLower')!, bands.lower);
      read(labels?.bollUpper, BOLL_COLOURS.band, bands.upper);
      read(labels?.bollMiddle, BOLL_COLOURS.middle, bands.middle);
      read(labels?.bollLower, BOLL_COLOURS.band, bands.lower);
    }
    if (this.macdSeries !== null) {
      const result = macd(closes);
      draw(this.macdSeries.macd, result.macd);
      draw(this.macdSeries.signal, result.signal);
      draw(this.macdSeries.histogram, result.histogram, true);
      read(labels?.macdDif, MACD_COLOURS.macd, result.macd);
      read(labels?.macdDea, MACD_COLOURS.signal, result.signal);
      read(labels?.macdHistogram, this.theme.text, result.histogram);
    }
    this.readings = readings;
    this.readingIndex.clear();
    times.forEach((time, i) => this.readingIndex.set(time, i));
  }

  private themeOptions(): DeepPartial<ChartOptions> {
    const theme = this.theme;
    return {
      layout: { background: { type: ColorType.Solid, color: theme.background }, textColor: theme.text },
      grid: { vertLines: { color: theme.grid }, horzLines: { color: theme.grid } },
      rightPriceScale: { borderColor: theme.border },
      timeScale: { borderColor: theme.border },
      crosshair: { vertLine: { color: theme.crosshair }, horzLine: { color: theme.crosshair } },
    };
  }

  private timeOptions(): DeepPartial<ChartOptions> {
    const intraday = isIntraday(this.period);
    const formatTime = chartTimeFormatter(intraday);
    this.formatTime = formatTime;
    return {
      localization: { locale: this.locale, timeFormatter: (time: Time) => formatTime(time as number) },
      timeScale: { timeVisible: intraday },
    };
  }

  private applySeriesTheme(): void {
    const { up, down, line, volumeAlpha } = this.theme;
    this.candleSeries.applyOptions({
      upColor: up,
      downColor: down,
      borderUpColor: up,
      borderDownColor: down,
      wickUpColor: up,
      wickDownColor: down,
    });
    this.lineSeries.applyOptions({ color: line });
    this.markSeries.applyOptions({ color: this.theme.mark });
    this.volumeUp.applyOptions({ color: withAlpha(up, volumeAlpha) });
    this.volumeDown.applyOptions({ color: withAlpha(down, volumeAlpha) });
    if (this.legend !== null) {
      this.legend.style.setProperty('--fx-chart-up', up);
      this.legend.style.setProperty('--fx-chart-down', down);
      this.legend.style.setProperty('--fx-chart-mark', this.theme.mark);
    }
  }

  private applyPeriodVisibility(): void {
    const realtime = this.period === 'realtime';
    this.candleSeries.applyOptions({ visible: !realtime });
    this.lineSeries.applyOptions({ visible: realtime });
  }

  private setPrecision(decimals: number): void {
    this.precision = Math.min(MAX_PRECISION, decimals);
    // Parsed from text: 10 ** -5 computed at run time can be 0.000009999999999999999, not 1e-5.
    const priceFormat = {
      type: 'price' as const,
      precision: this.precision,
      minMove: Number(`1e-${this.precision}`),
    };
    this.candleSeries.applyOptions({ priceFormat });
    this.lineSeries.applyOptions({ priceFormat });
    this.markSeries.applyOptions({ priceFormat });
  }

  private readonly onCrosshairMove = (event: MouseEventParams<Time>): void => {
    const time =
      typeof event.time === 'number' && (this.shown.has(event.time) || this.marks.has(event.time))
        ? event.time
        : null;
    if (time === this.hoveredTime) return;
    this.hoveredTime = time;
    this.renderLegend();
  };

  private buildLegend(): void {
    const legend = this.legend;
    const labels = this.legendLabels;
    if (legend === null || labels === null) return;
    this.legendCells.clear();
    const items = LEGEND_FIELDS.map((field) => {
      const item = document.createElement('span');
      item.className = `fx-chart-legend-item fx-chart-legend-${field}`;
      if (field !== 'time' && field !== 'note') {
        const label = document.createElement('span');
        label.className = 'fx-chart-legend-label';
        label.textContent = labels[field];
        item.append(label);
      }
      const value = document.createElement('span');
      value.className = 'fx-chart-legend-value';
      value.dataset.field = field;
      item.append(value);
      this.legendCells.set(field, value);
      return item;
    });
    const row = document.createElement('div');
    row.className = 'fx-chart-legend-indicators';
    row.dataset.testid = 'chart-legend-indicators';
    this.indicatorRow = row;
    legend.replaceChildren(...items, row);
    this.renderLegend();
  }

  /** Empty for a bar of real trades; otherwise where the bar came from, so history is never taken for trades. */
  private sourceNote(bar: Candle): string {
    const labels = this.legendLabels;
    if (labels === null || bar.source === undefined || bar.source === 'trades') return '';
    if (bar.source === 'index') return labels.index;
    return bar.source === 'simulated' ? labels.simulated : `${labels.imported} ${bar.source}`;
  }

  private renderLegend(): void {
    const legend = this.legend;
    if (legend === null || this.legendCells.size === 0) return;
    const time = this.hoveredTime ?? this.lastTime ?? this.lastMarkTime;
    const bar = time === null ? undefined : this.shown.get(time);
    const mark = time === null ? undefined : this.marks.get(time);
    legend.hidden = bar === undefined && mark === undefined;
    if (time === null || (bar === undefined && mark === undefined)) return;
    const change = bar === undefined ? { text: '', direction: 'flat' as Direction } : changePercent(bar);
    legend.dataset.direction = change.direction;
    const markText = mark === undefined ? '' : formatFixed(mark.close, this.precision);
    const text: Record<LegendField, string> = {
      time: this.formatTime(time),
      open: bar === undefined ? '' : formatFixed(bar.open, this.precision),
      high: bar === undefined ? '' : formatFixed(bar.high, this.precision),
      low: bar === undefined ? '' : formatFixed(bar.low, this.precision),
      close: bar === undefined ? '' : formatFixed(bar.close, this.precision),
      change: change.text,
      volume: bar === undefined ? '' : formatCompact(bar.volume, this.language),
      mark: markText,
      note: bar === undefined ? (this.legendLabels?.markOnly ?? '') : this.sourceNote(bar),
    };
    for (const [field, cell] of this.legendCells) {
      cell.textContent = text[field];
      const item = cell.parentElement;
      if (item === null) continue;
      if (TRADE_FIELDS.has(field)) item.hidden = bar === undefined;
      else if (field !== 'time') item.hidden = text[field] === '';
    }
    this.renderIndicatorRow(time);
  }

  /**
   * The chosen indicators' values at the legend's bar, each in its line's colour: display only, like the
   * lines (charts/indicators.ts), rounded half up to the price's decimals; a window not yet full shows a dash.
   */
  private renderIndicatorRow(time: number): void {
    const row = this.indicatorRow;
    if (row === null) return;
    const index = this.readingIndex.get(time);
    const items = this.readings.map((reading) => {
      const value = index === undefined ? null : (reading.line[index] ?? null);
      const item = document.createElement('span');
      item.className = 'fx-chart-legend-indicator';
      item.style.color = reading.colour;
      const label = document.createElement('span');
      label.className = 'fx-chart-legend-label';
      label.textContent = reading.label;
      const text = document.createElement('span');
      text.className = 'fx-chart-legend-value';
      text.dataset.indicator = reading.label;
      text.textContent = value === null ? formatFixed(null, this.precision) : plotText(value, this.precision);
      item.append(label, text);
      return item;
    });
    row.replaceChildren(...items);
    row.hidden = items.length === 0;
  }
}

type OptionTree = { [key: string]: unknown };

function isOptionTree(value: unknown): value is OptionTree {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof value !== 'function';
}

/** Merges option objects key by key, so that two parts can both set options of `layout` or `timeScale`. */
function mergeOptions(...parts: Array<DeepPartial<ChartOptions>>): DeepPartial<ChartOptions> {
  const merge = (target: OptionTree, source: OptionTree): OptionTree => {
    for (const [key, value] of Object.entries(source)) {
      const existing = target[key];
      target[key] = isOptionTree(existing) && isOptionTree(value) ? merge({ ...existing }, value) : value;
    }
    return target;
  };
  return parts.reduce<OptionTree>(
    (merged, part) => merge(merged, part as OptionTree),
    {},
  ) as DeepPartial<ChartOptions>;
}

/** Bars in time order, one per time (the later copy wins), without unreadable ones. */
function normaliseBars(candles: readonly Candle[]): Candle[] {
  const byTime = new Map<number, Candle>();
  for (const candle of candles) if (isPlottable(candle)) byTime.set(toChartTime(candle.time), candle);
  return [...byTime.entries()].sort(([a], [b]) => a - b).map(([, candle]) => candle);
}

function candleData(bar: Candle): CandlestickData<UTCTimestamp> {
  return {
    time: toChartTime(bar.time),
    open: plotNumber(bar.open),
    high: plotNumber(bar.high),
    low: plotNumber(bar.low),
    close: plotNumber(bar.close),
  };
}

function lineData(bar: Candle): LineData<UTCTimestamp> {
  return { time: toChartTime(bar.time), value: plotNumber(bar.close) };
}

/** Each volume series holds the bars of its colour; the other bars are gaps (whitespace). */
function volumeData(
  bar: Candle,
  rising: boolean,
): HistogramData<UTCTimestamp> | WhitespaceData<UTCTimestamp> {
  const time = toChartTime(bar.time);
  return isRising(bar) === rising ? { time, value: plotNumber(bar.volume) } : { time };
}

function isRising(bar: Candle): boolean {
  return compareDecimals(bar.close, bar.open) >= 0;
}

/** The bar's change from open to close in percent, computed exactly and rounded for display. */
function changePercent(bar: Candle): { text: string; direction: Direction } {
  const open = readDecimal(bar.open);
  const close = readDecimal(bar.close);
  if (open === null || close === null || open.minor === 0n)
    return { text: formatPercent(undefined), direction: 'flat' };
  const scale = Math.max(open.scale, close.scale);
  const openAt = open.minor * pow10(scale - open.scale);
  const closeAt = close.minor * pow10(scale - close.scale);
  // (close - open) / open x 100, to four places, then rounded to two by the percent formatter.
  const percent = formatDecimal(divideRounded((closeAt - openAt) * 1_000_000n, openAt, 'halfUp'), 4);
  return { text: formatPercent(percent), direction: directionOf(percent) };
}

/**
 * The start of the bar (chart time, ascending `times`) that holds the moment `at`, or null when it lies
 * before the first bar or after the end of the last one.
 */
function holdingTime(times: readonly number[], at: number, barSeconds: number): number | null {
  if (
    times.length === 0 ||
    at < (times[0] as number) ||
    at >= (times[times.length - 1] as number) + barSeconds
  )
    return null;
  let low = 0;
  let high = times.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((times[middle] as number) <= at) low = middle;
    else high = middle - 1;
  }
  return times[low] as number;
}

/** Compares two decimal texts exactly (display only: which of two prices is higher); unreadable ones as equal. */
function compareDecimal(a: string, b: string): number {
  const x = readDecimal(a);
  const y = readDecimal(b);
  if (x === null || y === null) return 0;
  const scale = Math.max(x.scale, y.scale);
  const left = x.minor * 10n ** BigInt(scale - x.scale);
  const right = y.minor * 10n ** BigInt(scale - y.scale);
  return left === right ? 0 : left > right ? 1 : -1;
}

/** How many bars a marker's label needs to its side before the next label on the same side fits. */
export const LABEL_GAP_BARS = 10;

/**
 * Keeps marker labels from overlapping (issue 45): markers on the same side of the bars (above or below)
 * whose times fall within LABEL_GAP_BARS bars of a labelled one lose their own label, and that label says
 * how many more it stands for ("#12 Open +2"). Markers on one bar are stacked by the chart and keep theirs
 * only when they are the first of their group. The markers themselves all stay drawn; every label stays in
 * the page's list of marks beside the chart. Markers must come sorted by time.
 */
export function thinLabels<M extends { time: unknown; position: string; text?: string }>(
  markers: readonly M[],
  barSeconds: number,
): M[] {
  const span = barSeconds * LABEL_GAP_BARS;
  const out = markers.map((marker) => ({ ...marker }));
  const lead = new Map<string, { index: number; time: number; hidden: number }>();
  out.forEach((marker, index) => {
    const time = marker.time as number;
    const current = lead.get(marker.position);
    if (current !== undefined && time - current.time < span) {
      current.hidden += 1;
      marker.text = '';
      const leader = out[current.index];
      const own = markers[current.index]?.text ?? '';
      if (leader !== undefined) leader.text = `${own} +${current.hidden}`;
    } else lead.set(marker.position, { index, time, hidden: 0 });
  });
  return out;
}
