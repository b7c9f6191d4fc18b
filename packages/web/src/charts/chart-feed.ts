import { fetchBars, readBar, type Bar, type BarQuery } from '../data/market.ts';
import { onReconnect, subscribeBars } from '../data/market-feeds.ts';
import { fetchMarkBars, isMarkBarPeriod, type MarkPriceBar, type MarkBarPeriod } from '../data/mark-price.ts';
import type { KlinePayload } from '@fairex/shared/socket-events.ts';
import type { Candle, ChartModel } from './chart-model.ts';
import { BAR_LENGTH_MS, barPeriodOf, type ChartPeriod } from './periods.ts';

// Feeds one chart with one market and interval. The history is fetched once (setData); from then on
// `kline` pushes move the chart (update), with no React render in between. Pushes can be lost while
// the connection is down, so every PULSE_MS (spec 01 section 9: "chart polls every 10 s") and after
// every reconnect the feed asks the server for the bars since the latest one it shows and applies them
// with update() too: the pulse repairs gaps without ever resetting the reader's zoom or scroll.
// Beside the trades, the mark price (docs/price-record.md) is drawn as a line from its own bars: loaded
// with the history and extended by the same pulse, so an interval without trades still shows the price
// the exchange marks at, moving. The mark line is an addition: when it cannot be loaded the trade
// candles are shown as before.

export type ChartStatus = 'loading' | 'ready' | 'empty' | 'error';

/** Bars of history asked for when a chart opens; enough to fill a wide screen at the default zoom. */
export const HISTORY_BARS = 500;
export const PULSE_MS = 10_000;

export interface ChartFeedOptions {
  symbol: string;
  period: ChartPeriod;
  onStatus: (status: ChartStatus, message?: string) => void;
  /** Seams for tests. */
  fetchBars?: (query: BarQuery, signal?: AbortSignal) => Promise<Bar[]>;
  fetchMarkBars?: (
    query: { symbol: string; period: MarkBarPeriod; fromMs: number; toMs: number },
    signal?: AbortSignal,
  ) => Promise<MarkPriceBar[]>;
  subscribeBars?: (symbol: string, period: string, listener: (bar: KlinePayload) => void) => () => void;
  onReconnect?: (listener: () => void) => () => void;
  now?: () => number;
  pulseMs?: number;
  isHidden?: () => boolean;
}

/** Starts feeding `model`; the returned function stops every timer, request and subscription. */
export function startChartFeed(model: ChartModel, options: ChartFeedOptions): () => void {
  const barPeriod = barPeriodOf(options.period);
  const fetch = options.fetchBars ?? fetchBars;
  const fetchMarks = options.fetchMarkBars ?? fetchMarkBars;
  /** Mark bars exist at the shorter periods only; weekly and monthly charts show the trades alone. */
  const markPeriod = isMarkBarPeriod(barPeriod) ? barPeriod : null;
  const now = options.now ?? Date.now;
  const isHidden = options.isHidden ?? (() => typeof document !== 'undefined' && document.hidden);
  let stopped = false;
  let historyLoaded = false;
  let inFlight: AbortController | null = null;
  let marksInFlight: AbortController | null = null;
  /** The newest push received before the history arrived; applied on top of it. */
  let earlyPush: Candle | null = null;
  let status: ChartStatus = 'loading';

  const setStatus = (next: ChartStatus, message?: string): void => {
    if (stopped || (next === status && message === undefined)) return;
    status = next;
    options.onStatus(next, message);
  };

  const showStatusOfBars = (): void =>
    setStatus(model.barCount() > 0 || model.markCount() > 0 ? 'ready' : 'empty');

  const onPush = (payload: KlinePayload): void => {
    const candle = readBar(payload);
    if (candle === null || stopped) return;
    if (!historyLoaded) {
      if (earlyPush === null || candle.time >= earlyPush.time) earlyPush = candle;
      return;
    }
    if (model.pushBar(candle) && status !== 'ready') showStatusOfBars();
  };

  const request = async (fromMs: number): Promise<Bar[] | null> => {
    const controller = new AbortController();
    inFlight = controller;
    try {
      return await fetch(
        { symbol: options.symbol, period: barPeriod, fromMs, toMs: now() + BAR_LENGTH_MS[barPeriod] },
        controller.signal,
      );
    } finally {
      if (inFlight === controller) inFlight = null;
    }
  };

  /** The mark bars since `fromMs`, or none when there is no mark line here or it cannot be loaded now. */
  const requestMarks = async (
    fromMs: number,
    controller: AbortController,
  ): Promise<MarkPriceBar[] | null> => {
    if (markPeriod === null) return null;
    marksInFlight = controller;
    try {
      const toMs = now() + BAR_LENGTH_MS[barPeriod];
      return await fetchMarks(
        { symbol: options.symbol, period: markPeriod, fromMs, toMs },
        controller.signal,
      );
    } catch {
      return null;
    } finally {
      if (marksInFlight === controller) marksInFlight = null;
    }
  };

  const loadHistory = async (): Promise<void> => {
    setStatus('loading');
    const fromMs = now() - HISTORY_BARS * BAR_LENGTH_MS[barPeriod];
    const marksController = new AbortController();
    const marks = requestMarks(fromMs, marksController);
    try {
      const bars = await request(fromMs);
      if (stopped || bars === null) return;
      const markBars = await marks;
      if (stopped) return;
      model.setHistory(bars);
      if (markBars !== null) model.setMarkHistory(markBars);
      historyLoaded = true;
      if (earlyPush !== null) model.pushBar(earlyPush);
      earlyPush = null;
      showStatusOfBars();
    } catch (error) {
      marksController.abort();
      if (!stopped) setStatus('error', error instanceof Error ? error.message : undefined);
    }
  };

  /** Fetches the bars since the latest one shown and applies them in order. */
  const catchUp = async (): Promise<void> => {
    if (stopped || inFlight !== null || isHidden()) return;
    if (!historyLoaded) {
      await loadHistory();
      return;
    }
    const since = model.latestBarTime() ?? now() - HISTORY_BARS * BAR_LENGTH_MS[barPeriod];
    const markSince = model.latestMarkTime() ?? now() - HISTORY_BARS * BAR_LENGTH_MS[barPeriod];
    const marksController = new AbortController();
    const marks = requestMarks(markSince, marksController);
    try {
      const bars = await request(since);
      if (stopped || bars === null) return;
      for (const bar of [...bars].sort((a, b) => a.time - b.time)) model.pushBar(bar);
      const markBars = await marks;
      if (stopped) return;
      for (const bar of [...(markBars ?? [])].sort((a, b) => a.time - b.time)) model.pushMark(bar);
      showStatusOfBars();
    } catch {
      marksController.abort();
      // A missed pulse is repaired by the next one; the bars on screen stay true meanwhile.
    }
  };

  model.reset(options.period);
  options.onStatus('loading');
  const unsubscribe = (options.subscribeBars ?? subscribeBars)(options.symbol, barPeriod, onPush);
  const stopReconnect = (options.onReconnect ?? onReconnect)(() => void catchUp());
  const timer = setInterval(() => void catchUp(), options.pulseMs ?? PULSE_MS);
  void loadHistory();

  return () => {
    stopped = true;
    clearInterval(timer);
    inFlight?.abort();
    marksInFlight?.abort();
    unsubscribe();
    stopReconnect();
  };
}
