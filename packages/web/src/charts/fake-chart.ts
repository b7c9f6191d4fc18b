import type { IChartApi } from 'lightweight-charts';
import type { ChartFactory } from './chart-model.ts';

// A stand-in for lightweight-charts in tests (jsdom has no canvas). It records what the model asks
// of the library, which is exactly what the lifecycle tests need to check. Imported by tests only.

export interface FakeSeries {
  type: string;
  /** The pane the series was added to (0 the price pane). */
  pane: number;
  options: Record<string, unknown>;
  data: Array<Record<string, unknown>>;
  setDataCalls: number;
  updates: Array<Record<string, unknown>>;
  /** Primitives attached (series markers are one). */
  primitives: unknown[];
  /** Price lines open now, by their options. */
  priceLines: Array<Record<string, unknown>>;
  applyOptions(options: Record<string, unknown>): void;
  setData(data: Array<Record<string, unknown>>): void;
  update(item: Record<string, unknown>): void;
}

export interface FakeChart {
  container: HTMLElement;
  options: Array<Record<string, unknown>>;
  series: FakeSeries[];
  removed: boolean;
  resets: number;
  crosshair: ((event: { time?: unknown }) => void) | null;
}

function fakeSeries(type: string, options: Record<string, unknown>, pane: number): FakeSeries {
  const series: FakeSeries = {
    type,
    pane,
    options: { ...options },
    data: [],
    setDataCalls: 0,
    updates: [],
    primitives: [],
    priceLines: [],
    applyOptions(next) {
      Object.assign(series.options, next);
    },
    setData(data) {
      series.setDataCalls += 1;
      series.data = [...data];
    },
    update(item) {
      const last = series.data[series.data.length - 1];
      if (last !== undefined && (item.time as number) < (last.time as number)) {
        // The real library refuses this too.
        throw new Error('Cannot update oldest data');
      }
      series.updates.push(item);
      if (last !== undefined && last.time === item.time) series.data[series.data.length - 1] = item;
      else series.data.push(item);
    },
  };
  Object.assign(series, {
    attachPrimitive(primitive: unknown) {
      series.primitives.push(primitive);
    },
    detachPrimitive(primitive: unknown) {
      series.primitives = series.primitives.filter((item) => item !== primitive);
    },
    createPriceLine(options: Record<string, unknown>) {
      const line = { ...options };
      series.priceLines.push(line);
      return line;
    },
    removePriceLine(line: Record<string, unknown>) {
      series.priceLines = series.priceLines.filter((item) => item !== line);
    },
  });
  return series;
}

/** A chart factory that records every chart it makes. */
export function fakeChartFactory(): { factory: ChartFactory; charts: FakeChart[] } {
  const charts: FakeChart[] = [];
  const factory: ChartFactory = (container, options) => {
    const chart: FakeChart = {
      container,
      options: [options as Record<string, unknown>],
      series: [],
      removed: false,
      resets: 0,
      crosshair: null,
    };
    charts.push(chart);
    const api = {
      addSeries(definition: { type: string }, seriesOptions: Record<string, unknown> = {}, pane = 0) {
        if (chart.removed) throw new Error('Object is disposed');
        const series = fakeSeries(definition.type, seriesOptions, pane);
        chart.series.push(series);
        return series;
      },
      removeSeries(series: FakeSeries) {
        chart.series = chart.series.filter((item) => item !== series);
      },
      panes() {
        const count = 1 + Math.max(0, ...chart.series.map((series) => series.pane));
        return Array.from({ length: count }, () => ({ setStretchFactor: () => undefined }));
      },
      applyOptions(next: Record<string, unknown>) {
        if (chart.removed) throw new Error('Object is disposed');
        chart.options.push(next);
      },
      priceScale() {
        return { applyOptions: () => undefined };
      },
      timeScale() {
        return {
          resetTimeScale: () => {
            chart.resets += 1;
          },
        };
      },
      subscribeCrosshairMove(handler: FakeChart['crosshair']) {
        chart.crosshair = handler;
      },
      unsubscribeCrosshairMove() {
        chart.crosshair = null;
      },
      remove() {
        if (chart.removed) throw new Error('Object is disposed');
        chart.removed = true;
      },
    };
    return api as unknown as IChartApi;
  };
  return { factory, charts };
}
