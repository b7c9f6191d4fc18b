import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ChartModel, type Candle, type ChartModelOptions, thinLabels } from './chart-model.ts';
import { buildChartTheme, withAlpha } from './chart-theme.ts';
import { SHANGHAI_OFFSET_SECONDS, chartTimeFormatter, fromChartTime, toChartTime } from './chart-time.ts';
import { fakeChartFactory } from './fake-chart.ts';
import { dateTimeIn } from '../format/time-zone.ts';

const MINUTE = 60_000;
const T0 = Date.UTC(2024, 4, 1, 6, 0); // 14:00 in Shanghai

function bar(minute: number, close: string, open = '100.00', volume = '1.5'): Candle {
  return { time: T0 + minute * MINUTE, open, high: '999.99', low: '0.01', close, volume };
}

const LABELS = {
  open: 'O',
  high: 'H',
  low: 'L',
  close: 'C',
  change: 'Chg',
  volume: 'Vol',
  simulated: 'Simulated history',
  imported: 'History from',
  index: 'Index price (no trades yet)',
  mark: 'Mark',
  markOnly: 'No trades: mark price',
  bollUpper: 'UP',
  bollMiddle: 'MB',
  bollLower: 'DN',
  macdDif: 'DIF',
  macdDea: 'DEA',
  macdHistogram: 'MACD',
};

function makeModel(overrides: Partial<ChartModelOptions> = {}) {
  const { factory, charts } = fakeChartFactory();
  const legend = document.createElement('div');
  const model = new ChartModel(
    document.createElement('div'),
    {
      theme: buildChartTheme({ nightMode: false, up: '', down: '' }),
      locale: 'en-US',
      language: 'en',
      period: '1min',
      legend,
      legendLabels: LABELS,
      ...overrides,
    },
    factory,
  );
  const chart = charts[0]!;
  const [candles, line, volumeUp, volumeDown, mark] = chart.series;
  return {
    model,
    charts,
    chart,
    legend,
    candles: candles!,
    line: line!,
    volumeUp: volumeUp!,
    volumeDown: volumeDown!,
    mark: mark!,
  };
}

function legendText(legend: HTMLElement, field: string): string | null | undefined {
  return legend.querySelector(`[data-field="${field}"]`)?.textContent;
}

describe('ChartModel', () => {
  it('makes one chart with candles, a line, volume in two colours and the mark price line', () => {
    const { charts, chart } = makeModel();
    expect(charts).toHaveLength(1);
    expect(chart.series.slice(0, 5).map((series) => series.type)).toEqual([
      'Candlestick',
      'Line',
      'Histogram',
      'Histogram',
      'Line',
    ]);
    // MA 7/25/99, EMA 7/25/99 and the three BOLL lines: hidden until chosen.
    expect(chart.series.slice(5).map((series) => [series.type, series.options.visible])).toEqual(
      Array.from({ length: 9 }, () => ['Line', false]),
    );
    expect(chart.options[0]).toMatchObject({
      autoSize: true,
      layout: { attributionLogo: true, background: { color: '#ffffff' } },
      timeScale: { rightOffset: 6, borderColor: '#e5e8ef', timeVisible: true },
    });
  });

  it('loads history in time order, in Shanghai time, the later copy of a bar winning', () => {
    const { model, chart, candles, line, volumeUp, volumeDown } = makeModel();
    model.setHistory([
      bar(2, '101.00'),
      bar(0, '99.00'),
      bar(1, '100.50'),
      bar(2, '102.00'),
      { ...bar(3, 'oops') },
    ]);
    expect(candles.data.map((item) => item.time)).toEqual(
      [0, 1, 2].map((minute) => (T0 + minute * MINUTE) / 1000 + SHANGHAI_OFFSET_SECONDS),
    );
    expect(candles.data.map((item) => item.close)).toEqual([99, 100.5, 102]);
    expect(line.data.map((item) => item.value)).toEqual([99, 100.5, 102]);
    // Bar 0 fell (99 < 100): its volume is in the falling series, a gap in the rising one.
    expect(volumeUp.data.map((item) => item.value)).toEqual([undefined, 1.5, 1.5]);
    expect(volumeDown.data.map((item) => item.value)).toEqual([1.5, undefined, undefined]);
    expect(chart.resets).toBe(1);
    expect(model.barCount()).toBe(3);
    expect(model.latestBarTime()).toBe(T0 + 2 * MINUTE);
  });

  it('moves with update() and never with setData once the history is in', () => {
    const { model, candles, line } = makeModel();
    model.setHistory([bar(0, '100.00'), bar(1, '100.50')]);
    const setDataCalls = candles.setDataCalls;
    expect(model.pushBar(bar(1, '100.75'))).toBe(true);
    expect(model.pushBar(bar(2, '101.00'))).toBe(true);
    // An older bar is final on screen already; the library could not insert it anyway.
    expect(model.pushBar(bar(0, '1.00'))).toBe(false);
    expect(model.pushBar({ ...bar(3, '1'), volume: 'NaN' })).toBe(false);
    expect(candles.setDataCalls).toBe(setDataCalls);
    expect(candles.updates.map((item) => item.close)).toEqual([100.75, 101]);
    expect(line.data.map((item) => item.value)).toEqual([100, 100.75, 101]);
    expect(model.latestBarTime()).toBe(T0 + 2 * MINUTE);
  });

  it('changes theme and colours in place: same chart, same data, same zoom', () => {
    const { model, charts, chart, candles, volumeUp } = makeModel();
    model.setHistory([bar(0, '100.00'), bar(1, '100.50')]);
    const before = { resets: chart.resets, setData: candles.setDataCalls, data: [...candles.data] };
    model.setTheme(buildChartTheme({ nightMode: true, redUp: true, up: '', down: '' }));
    expect(charts).toHaveLength(1);
    expect(chart.resets).toBe(before.resets);
    expect(candles.setDataCalls).toBe(before.setData);
    expect(candles.data).toEqual(before.data);
    expect(chart.options.at(-1)).toMatchObject({ layout: { background: { color: '#141923' } } });
    expect(candles.options).toMatchObject({ upColor: '#f6465d', downColor: '#0ecb81' });
    expect(volumeUp.options.color).toBe(withAlpha('#f6465d', 0.4));
  });

  it('changes language in place', () => {
    const { model, charts, chart, legend } = makeModel();
    model.setHistory([bar(0, '100.00')]);
    model.setLocale('ja-JP', 'jp');
    expect(charts).toHaveLength(1);
    expect(chart.options.at(-1)).toMatchObject({ localization: { locale: 'ja-JP' } });
    // Every language writes the legend's date as the tables do.
    expect(legendText(legend, 'time')).toBe('2024-05-01 14:00');
  });

  it('draws the realtime interval as a line and empties the chart when the interval changes', () => {
    const { model, candles, line } = makeModel();
    model.setHistory([bar(0, '100.00')]);
    expect([candles.options.visible, line.options.visible]).toEqual([true, false]);
    model.reset('realtime');
    expect([candles.options.visible, line.options.visible]).toEqual([false, true]);
    expect(candles.data).toEqual([]);
    expect(model.barCount()).toBe(0);
    expect(model.latestBarTime()).toBeNull();
  });

  it('shows the exact strings of the latest or hovered bar in the legend', () => {
    const { model, chart, legend, candles } = makeModel();
    model.setHistory([bar(0, '67012.34', '67000.00', '12345.678'), bar(1, '66990.10', '67012.34')]);
    expect(candles.options.priceFormat).toMatchObject({ precision: 2 });
    expect(legendText(legend, 'close')).toBe('66,990.10');
    expect(legendText(legend, 'change')).toBe('-0.03%');
    expect(legend.dataset.direction).toBe('down');
    chart.crosshair?.({ time: toChartTime(T0) });
    expect(legendText(legend, 'close')).toBe('67,012.34');
    expect(legendText(legend, 'change')).toBe('+0.02%');
    expect(legendText(legend, 'volume')).toBe('12.35K');
    expect(legendText(legend, 'time')).toBe('2024-05-01 14:00');
    // A new bar while hovering leaves the hovered one in the legend.
    model.pushBar(bar(2, '66000.00'));
    expect(legendText(legend, 'close')).toBe('67,012.34');
    chart.crosshair?.({});
    expect(legendText(legend, 'close')).toBe('66,000.00');
  });

  it('says when a bar is backfilled history or the index rather than trades', () => {
    const { model, chart, legend } = makeModel();
    model.setHistory([
      { ...bar(0, '100.00'), source: 'simulated' },
      { ...bar(1, '100.00'), source: 'binance' },
      { ...bar(2, '100.00'), source: 'trades' },
      { ...bar(3, '100.00'), source: 'index' },
    ]);
    const note = () => legend.querySelector('[data-field="note"]');
    // The latest bar, shown first, is drawn from the index before any trade: the legend says so.
    expect(note()?.textContent).toBe('Index price (no trades yet)');
    expect(note()?.parentElement?.hidden).toBe(false);
    chart.crosshair?.({ time: toChartTime(T0 + 2 * MINUTE) });
    expect(note()?.parentElement?.hidden).toBe(true);
    chart.crosshair?.({ time: toChartTime(T0) });
    expect(note()?.textContent).toBe('Simulated history');
    expect(note()?.parentElement?.hidden).toBe(false);
    chart.crosshair?.({ time: toChartTime(T0 + MINUTE) });
    expect(note()?.textContent).toBe('History from binance');
  });

  it('draws the mark price as its own line and names it in the legend', () => {
    const { model, chart, legend, mark, candles } = makeModel();
    model.setHistory([bar(0, '100.00'), bar(1, '101.00')]);
    model.setMarkHistory([
      { time: T0 + MINUTE, open: '100.9', high: '101.2', low: '100.8', close: '101.05' },
      { time: T0, open: '100.1', high: '100.3', low: '99.9', close: '100.02' },
    ]);
    expect(mark.data.map((item) => item.value)).toEqual([100.02, 101.05]);
    expect(mark.options).toMatchObject({ color: '#c98a00', lineStyle: 2 });
    expect(legendText(legend, 'mark')).toBe('101.05');
    chart.crosshair?.({ time: toChartTime(T0) });
    expect(legendText(legend, 'mark')).toBe('100.02');
    chart.crosshair?.({});
    expect(model.pushMark({ time: T0 + 2 * MINUTE, open: '1', high: '1', low: '1', close: '101.10' })).toBe(
      true,
    );
    expect(model.pushMark({ time: T0, open: '1', high: '1', low: '1', close: '99.00' })).toBe(false);
    expect(mark.updates.map((item) => item.value)).toEqual([101.1]);
    // The mark line is apart from the trades: the candles did not move.
    expect(candles.data).toHaveLength(2);
    model.reset('5min');
    expect(mark.data).toHaveLength(0);
    expect(model.markCount()).toBe(0);
  });

  it('moves the mark line at once with a live mark, on the bars the server sent (issue 45)', () => {
    const { model, legend, mark } = makeModel();
    // Before the mark history loaded there is no bar to align on: nothing is drawn.
    expect(model.showLiveMark('100.50', T0 + 10_000)).toBe(false);
    model.setMarkHistory([{ time: T0, open: '100.00', high: '100.20', low: '99.90', close: '100.10' }]);
    // Within the latest bar: its close moves (and its high, when passed).
    expect(model.showLiveMark('100.40', T0 + 30_000)).toBe(true);
    expect(legendText(legend, 'mark')).toBe('100.40');
    expect(mark.updates.at(-1)).toMatchObject({ time: toChartTime(T0), value: 100.4 });
    // Two bars later: a new bar opens at its aligned time.
    expect(model.showLiveMark('99.80', T0 + 2 * MINUTE + 5_000)).toBe(true);
    expect(mark.updates.at(-1)).toMatchObject({ time: toChartTime(T0 + 2 * MINUTE), value: 99.8 });
    expect(legendText(legend, 'mark')).toBe('99.80');
    // Older than the latest bar, or unreadable: ignored.
    expect(model.showLiveMark('98.00', T0)).toBe(false);
    expect(model.showLiveMark('abc', T0 + 3 * MINUTE)).toBe(false);
    expect(legendText(legend, 'mark')).toBe('99.80');
  });

  it('shows the mark price alone, said to be the mark, where the interval has no trades', () => {
    const { model, legend } = makeModel();
    model.setMarkHistory([{ time: T0, open: '100', high: '100', low: '100', close: '100.00' }]);
    expect(legend.hidden).toBe(false);
    expect(legendText(legend, 'mark')).toBe('100.00');
    expect(legendText(legend, 'note')).toBe('No trades: mark price');
    const close = legend.querySelector('[data-field="close"]');
    expect(close?.parentElement?.hidden).toBe(true);
    expect(legendText(legend, 'time')).toBe('2024-05-01 14:00');
  });

  it('takes the price precision from the server strings', () => {
    const { model, candles } = makeModel();
    model.setHistory([bar(0, '0.12345', '0.12340')]);
    expect(candles.options.priceFormat).toMatchObject({ precision: 5, minMove: 0.00001 });
    model.pushBar(bar(1, '0.1234567', '0.12345'));
    expect(candles.options.priceFormat).toMatchObject({ precision: 7 });
  });

  it('is removed once, and ignores calls that arrive afterwards', () => {
    const { model, chart, legend } = makeModel();
    model.setHistory([bar(0, '100.00')]);
    model.remove();
    expect(chart.removed).toBe(true);
    expect(chart.crosshair).toBeNull();
    expect(legend.childElementCount).toBe(0);
    // A late response or push must not touch a disposed chart (the real one would throw).
    expect(() => {
      model.remove();
      model.setHistory([bar(1, '1')]);
      model.pushBar(bar(2, '1'));
      model.setTheme(buildChartTheme({ nightMode: true, up: '', down: '' }));
      model.setLocale('zh-CN', 'zh');
      model.reset('5min');
    }).not.toThrow();
    expect(model.isRemoved()).toBe(true);
  });
});

describe('chart time', () => {
  it('shows each bar at its Asia/Shanghai wall-clock time', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1995, 0, 1), max: Date.UTC(2100, 0, 1) }), (epochMs) => {
        // The tables' format ("2026-12-07 21:15"), whatever the language: never "12/07/2026".
        const text = chartTimeFormatter(true)(toChartTime(epochMs));
        expect(text).toBe(dateTimeIn('Asia/Shanghai', epochMs).slice(0, 16));
        expect(text).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
        expect(chartTimeFormatter(false)(toChartTime(epochMs))).toBe(text.slice(0, 10));
        expect(fromChartTime(toChartTime(epochMs))).toBe(Math.floor(epochMs / 1000) * 1000);
      }),
      { numRuns: 200 },
    );
  });
});

describe('chart theme', () => {
  it('follows the page variables and falls back to the stored preference', () => {
    expect(buildChartTheme({ nightMode: false, up: ' #123456 ', down: 'rgb(1, 2, 3)' })).toMatchObject({
      up: '#123456',
      down: 'rgb(1, 2, 3)',
    });
    expect(buildChartTheme({ nightMode: false, redUp: true, up: '', down: '' })).toMatchObject({
      up: '#f6465d',
      down: '#0ecb81',
    });
    expect(withAlpha('#0ecb81', 0.5)).toBe('rgba(14, 203, 129, 0.5)');
    expect(withAlpha('#fff', 1)).toBe('rgba(255, 255, 255, 1)');
    expect(withAlpha('rgb(1, 2, 3)', 0.2)).toBe('rgba(1, 2, 3, 0.2)');
  });
});

describe('ChartModel indicators (display only)', () => {
  const closes = ['1', '2', '3', '4', '5', '6', '7', '8'];
  const history = () => closes.map((close, minute) => bar(minute, close));
  const values = (series: { data: Array<Record<string, unknown>> }) =>
    series.data.map((item) => (item.value === undefined ? null : item.value));

  it('draws MA 7 over the closes once MA is chosen, hiding the rest', () => {
    const { model, chart } = makeModel();
    model.setHistory(history());
    model.setIndicators(['ma']);
    const ma7 = chart.series[5]!;
    expect(ma7.options.visible).toBe(true);
    // (1..7)/7 = 4, (2..8)/7 = 5
    expect(values(ma7)).toEqual([null, null, null, null, null, null, 4, 5]);
    expect(chart.series[8]!.options.visible).toBe(false); // EMA 7
    expect(model.shownIndicators()).toEqual(['ma']);
  });

  it("shows the chosen indicators' values at the legend's bar, in their colours, at the price's decimals", () => {
    const { model, chart, legend } = makeModel();
    const indicatorText = () =>
      [...legend.querySelectorAll<HTMLElement>('[data-indicator]')].map((cell) => [
        cell.dataset.indicator,
        cell.textContent,
      ]);
    model.setHistory(closes.map((close, minute) => bar(minute, `${close}.00`)));
    expect(indicatorText()).toEqual([]);
    model.setIndicators(['ma', 'boll']);
    // The latest bar: MA7 of 2..8 is 5; MA25, MA99 and the 20-bar bands are not full yet.
    expect(indicatorText()).toEqual([
      ['MA7', '5.00'],
      ['MA25', '--'],
      ['MA99', '--'],
      ['UP', '--'],
      ['MB', '--'],
      ['DN', '--'],
    ]);
    const ma7 = legend.querySelector<HTMLElement>('[data-indicator="MA7"]')!.parentElement!;
    expect(ma7.style.color).not.toBe('');
    // Hovering the seventh bar shows its own values: MA7 of 1..7 is 4.
    chart.crosshair?.({ time: toChartTime(T0 + 6 * MINUTE) });
    expect(indicatorText()[0]).toEqual(['MA7', '4.00']);
    // A live bar moves the values; MACD adds its three lines; dropping all empties the row.
    chart.crosshair?.({});
    model.pushBar(bar(8, '17.00'));
    expect(indicatorText()[0]).toEqual(['MA7', '7.14']); // (3 + 4 + 5 + 6 + 7 + 8 + 17) / 7
    model.setIndicators(['macd']);
    expect(indicatorText().map(([label]) => label)).toEqual(['DIF', 'DEA', 'MACD']);
    model.setIndicators([]);
    expect(indicatorText()).toEqual([]);
  });

  it('hides and shows the volume bars with VOL', () => {
    const { model, volumeUp, volumeDown } = makeModel();
    expect(volumeUp.options.visible).toBe(true);
    model.setIndicators([]);
    expect(volumeUp.options.visible).toBe(false);
    expect(volumeDown.options.visible).toBe(false);
    model.setIndicators(['vol']);
    expect(volumeUp.options.visible).toBe(true);
  });

  it('opens MACD in its own pane and closes the pane when MACD is dropped', () => {
    const { model, chart } = makeModel({ indicators: ['macd'] });
    model.setHistory(history());
    const pane = chart.series.filter((series) => series.pane === 1);
    expect(pane.map((series) => series.type)).toEqual(['Histogram', 'Line', 'Line']);
    // 8 bars: the slow EMA (26) never fills, so every point is whitespace
    expect(pane.every((series) => series.data.every((item) => item.value === undefined))).toBe(true);
    model.setIndicators(['vol']);
    expect(chart.series.filter((series) => series.pane === 1)).toEqual([]);
  });

  it('moves only the latest point on a live bar', () => {
    const { model, chart } = makeModel({ indicators: ['ma'] });
    model.setHistory(history());
    const ma7 = chart.series[5]!;
    const drawn = ma7.setDataCalls;
    model.pushBar(bar(8, '16'));
    // (3+4+5+6+7+8+16)/7 = 7
    expect(ma7.updates.at(-1)).toMatchObject({ value: 7 });
    expect(ma7.setDataCalls).toBe(drawn);
  });
});

describe('ChartModel marks', () => {
  const moment = (key: string, minute: number, second = 0) => ({
    key,
    timeMs: T0 + minute * MINUTE + second * 1000,
    shape: 'circle' as const,
    position: 'aboveBar' as const,
    tone: 'up' as const,
    text: key,
  });

  it('puts a moment on the bar that holds it and one still to come on its bar once that arrives', () => {
    const { model, chart, candles, line } = makeModel();
    model.setHistory([bar(0, '100.00'), bar(1, '101.00'), bar(2, '102.00')]);
    model.setMarks([moment('7-open', 1, 30), moment('7-expiry', 3, 5)], []);
    expect(chart.container.dataset.marks).toBe('7-open');
    // One markers primitive on the candles and one on the realtime line.
    expect(candles.primitives).toHaveLength(1);
    expect(line.primitives).toHaveLength(1);
    model.pushBar(bar(3, '103.00'));
    expect(chart.container.dataset.marks).toBe('7-open 7-expiry');
    model.setMarks([], []);
    expect(chart.container.dataset.marks).toBe('');
  });

  it('puts a moment after the last trade bar on the mark price bar that holds it', () => {
    const { model, chart, candles, mark } = makeModel();
    model.setHistory([bar(0, '100.00')]);
    model.setMarkHistory([
      { time: T0, open: '100.00', high: '100.00', low: '100.00', close: '100.00' },
      { time: T0 + 4 * MINUTE, open: '100.50', high: '100.50', low: '100.50', close: '100.50' },
    ]);
    model.setMarks([moment('9-open', 4, 10), moment('9-expiry', 5, 10)], []);
    expect(chart.container.dataset.marks).toBe('9-open');
    expect(mark.primitives).toHaveLength(1);
    expect(candles.primitives).toHaveLength(1);
    model.pushMark({ time: T0 + 5 * MINUTE, open: '100.75', high: '100.75', low: '100.75', close: '100.75' });
    expect(chart.container.dataset.marks).toBe('9-open 9-expiry');
  });

  it('leaves out a moment before the first bar and clears the marks with a new interval', () => {
    const { model, chart } = makeModel();
    model.setHistory([bar(5, '100.00'), bar(6, '101.00')]);
    model.setMarks([moment('1-open', 1), moment('1-expiry', 6, 59)], []);
    expect(chart.container.dataset.marks).toBe('1-expiry');
    model.reset('5min');
    expect(chart.container.dataset.marks).toBe('');
  });

  it('draws a level as a titled dashed price line on the candles and the line, and replaces it', () => {
    const { model, chart, candles, line } = makeModel();
    model.setHistory([bar(0, '100.00')]);
    model.setMarks([], [{ key: '3-open-price', price: '100.25', tone: 'down', title: '#3 Down' }]);
    expect(candles.priceLines).toEqual([
      expect.objectContaining({ price: 100.25, title: '#3 Down', axisLabelVisible: true }),
    ]);
    expect(line.priceLines).toHaveLength(1);
    expect(chart.container.dataset.levels).toBe('3-open-price');
    model.setMarks([], []);
    expect(candles.priceLines).toEqual([]);
    expect(line.priceLines).toEqual([]);
  });
});

describe('marker labels (issue 45)', () => {
  const at = (key: string, time: number, position: 'aboveBar' | 'belowBar') => ({
    id: key,
    time,
    position,
    text: `#${key}`,
  });

  it('keeps one label per side within ten bars, counting the others, and every marker', () => {
    // One-minute bars: 1, 2 and 3 within ten minutes below; 4 above; 5 below, eleven minutes after 1.
    const markers = [
      at('1', 0, 'belowBar'),
      at('4', 0, 'aboveBar'),
      at('2', 60, 'belowBar'),
      at('3', 60, 'belowBar'),
      at('5', 660, 'belowBar'),
    ];
    expect(thinLabels(markers, 60).map((marker) => [marker.id, marker.text])).toEqual([
      ['1', '#1 +2'],
      ['4', '#4'],
      ['2', ''],
      ['3', ''],
      ['5', '#5'],
    ]);
    // The input is left as it was.
    expect(markers[0]?.text).toBe('#1');
  });

  it('leaves markers far apart as they are', () => {
    const markers = [at('1', 0, 'belowBar'), at('2', 600, 'belowBar')];
    expect(thinLabels(markers, 60).map((marker) => marker.text)).toEqual(['#1', '#2']);
  });
});
