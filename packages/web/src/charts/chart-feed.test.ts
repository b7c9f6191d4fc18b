import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KlinePayload } from '@fairex/shared/socket-events.ts';
import type { Bar, BarQuery } from '../data/market.ts';
import type { MarkPriceBar } from '../data/mark-price.ts';
import { ChartModel } from './chart-model.ts';
import { buildChartTheme } from './chart-theme.ts';
import {
  HISTORY_BARS,
  PULSE_MS,
  startChartFeed,
  type ChartFeedOptions,
  type ChartStatus,
} from './chart-feed.ts';
import { fakeChartFactory } from './fake-chart.ts';

const MINUTE = 60_000;
const NOW = Date.UTC(2024, 4, 1, 6, 30);

function bar(minute: number, close: string): Bar {
  return {
    time: NOW - 30 * MINUTE + minute * MINUTE,
    open: '100',
    high: '200',
    low: '50',
    close,
    volume: '1',
  };
}

function mark(minute: number, close: string): MarkPriceBar {
  const { time } = bar(minute, close);
  return { time, open: close, high: close, low: close, close };
}

function push(minute: number, close: string, period = '1min'): KlinePayload {
  return { type: 'kline', symbol: 'BTC/USDT', period, change: '0', ...bar(minute, close) };
}

/** A deferred answer, so a test decides when the server replies. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

function setup(overrides: Partial<ChartFeedOptions> = {}, initialMarks?: MarkPriceBar[] | Error) {
  const { factory, charts } = fakeChartFactory();
  const model = new ChartModel(
    document.createElement('div'),
    {
      theme: buildChartTheme({ nightMode: false, up: '', down: '' }),
      locale: 'en-US',
      language: 'en',
      period: '1min',
    },
    factory,
  );
  const answers: Array<ReturnType<typeof deferred<Bar[]>>> = [];
  const queries: BarQuery[] = [];
  const fetchBars = vi.fn(async (query: BarQuery) => {
    queries.push(query);
    const answer = deferred<Bar[]>();
    answers.push(answer);
    return answer.promise;
  });
  let listener: ((bar: KlinePayload) => void) | null = null;
  let reconnect: (() => void) | null = null;
  const unsubscribe = vi.fn();
  const statuses: ChartStatus[] = [];
  /** The mark bars the next mark request answers with; an Error is thrown instead. */
  const markReplies: Array<MarkPriceBar[] | Error> = [];
  const markQueries: Array<{ symbol: string; period: string; fromMs: number; toMs: number }> = [];
  const fetchMarkBars = vi.fn(async (query: (typeof markQueries)[number]) => {
    markQueries.push(query);
    const reply = markReplies.shift() ?? [];
    if (reply instanceof Error) throw reply;
    return reply;
  });
  if (initialMarks !== undefined) markReplies.push(initialMarks);
  const stop = startChartFeed(model, {
    symbol: 'BTC/USDT',
    period: '1min',
    onStatus: (status) => statuses.push(status),
    fetchBars,
    fetchMarkBars,
    subscribeBars: (_symbol, _period, onBar) => {
      listener = onBar;
      return unsubscribe;
    },
    onReconnect: (onBack) => {
      reconnect = onBack;
      return () => (reconnect = null);
    },
    now: () => NOW,
    isHidden: () => false,
    ...overrides,
  });
  const candles = charts[0]!.series[0]!;
  const markLine = charts[0]!.series[4]!;
  return {
    model,
    candles,
    markLine,
    markReplies,
    markQueries,
    answers,
    queries,
    statuses,
    stop,
    unsubscribe,
    push: (payload: KlinePayload) => listener?.(payload),
    reconnect: () => reconnect?.(),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('chart feed', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks for the history of the 1-minute bars and then follows pushes with update()', async () => {
    const feed = setup();
    expect(feed.queries[0]).toEqual({
      symbol: 'BTC/USDT',
      period: '1min',
      fromMs: NOW - HISTORY_BARS * MINUTE,
      toMs: NOW + MINUTE,
    });
    expect(feed.statuses).toEqual(['loading']);
    // A push that arrives before the history is kept and laid on top of it.
    feed.push(push(29, '150'));
    feed.answers[0]!.resolve([bar(27, '120'), bar(28, '130'), bar(29, '140')]);
    await settle();
    expect(feed.statuses).toEqual(['loading', 'ready']);
    expect(feed.candles.data.map((item) => item.close)).toEqual([120, 130, 150]);
    const setDataCalls = feed.candles.setDataCalls;
    feed.push(push(30, '151'));
    feed.push(push(30, 'bad'));
    feed.push(push(30, '152'));
    expect(feed.candles.data.map((item) => item.close)).toEqual([120, 130, 150, 152]);
    expect(feed.candles.setDataCalls).toBe(setDataCalls);
    feed.stop();
  });

  it('says the interval is empty, and becomes ready with the first pushed bar', async () => {
    const feed = setup();
    feed.answers[0]!.resolve([]);
    await settle();
    expect(feed.statuses).toEqual(['loading', 'empty']);
    feed.push(push(0, '100'));
    expect(feed.statuses).toEqual(['loading', 'empty', 'ready']);
    feed.stop();
  });

  it('repairs missed bars every pulse and after a reconnect, from the latest bar shown', async () => {
    const feed = setup();
    feed.answers[0]!.resolve([bar(28, '130'), bar(29, '140')]);
    await settle();
    const setDataCalls = feed.candles.setDataCalls;
    vi.advanceTimersByTime(PULSE_MS);
    expect(feed.queries[1]).toMatchObject({ fromMs: bar(29, '').time });
    feed.answers[1]!.resolve([bar(31, '160'), bar(29, '141'), bar(30, '150')]);
    await settle();
    expect(feed.candles.data.map((item) => item.close)).toEqual([130, 141, 150, 160]);
    feed.reconnect();
    expect(feed.queries[2]).toMatchObject({ fromMs: bar(31, '').time });
    // A pulse while a request is still out does not pile up another.
    vi.advanceTimersByTime(PULSE_MS);
    expect(feed.queries).toHaveLength(3);
    feed.answers[2]!.reject(new Error('network'));
    await settle();
    expect(feed.statuses.at(-1)).toBe('ready');
    expect(feed.candles.setDataCalls).toBe(setDataCalls);
    feed.stop();
  });

  it('shows an error when the history fails and tries the whole history again at the next pulse', async () => {
    const feed = setup();
    feed.answers[0]!.reject(new Error('Chart history is resting.'));
    await settle();
    expect(feed.statuses).toEqual(['loading', 'error']);
    vi.advanceTimersByTime(PULSE_MS);
    expect(feed.queries[1]).toMatchObject({ fromMs: NOW - HISTORY_BARS * MINUTE });
    feed.answers[1]!.resolve([bar(0, '1')]);
    await settle();
    expect(feed.statuses).toEqual(['loading', 'error', 'loading', 'ready']);
    feed.stop();
  });

  it('pauses the pulse while the tab is hidden', async () => {
    let hidden = false;
    const feed = setup({ isHidden: () => hidden });
    feed.answers[0]!.resolve([bar(0, '1')]);
    await settle();
    hidden = true;
    vi.advanceTimersByTime(3 * PULSE_MS);
    expect(feed.queries).toHaveLength(1);
    hidden = false;
    vi.advanceTimersByTime(PULSE_MS);
    expect(feed.queries).toHaveLength(2);
    feed.stop();
  });

  it('stops everything, and a late answer changes nothing', async () => {
    const feed = setup();
    feed.stop();
    expect(feed.unsubscribe).toHaveBeenCalledTimes(1);
    feed.answers[0]!.resolve([bar(0, '1')]);
    await settle();
    vi.advanceTimersByTime(3 * PULSE_MS);
    expect(feed.queries).toHaveLength(1);
    expect(feed.model.barCount()).toBe(0);
    expect(feed.statuses).toEqual(['loading']);
  });

  it('draws the realtime interval from the 1-minute bars', () => {
    const feed = setup({ period: 'realtime' });
    expect(feed.queries[0]).toMatchObject({ period: '1min' });
    feed.stop();
  });

  it('draws the mark price beside the candles, from the same period and time', async () => {
    const feed = setup({}, [mark(27, '121.5'), mark(28, '129.25')]);
    expect(feed.markQueries[0]).toEqual({
      symbol: 'BTC/USDT',
      period: '1min',
      fromMs: NOW - HISTORY_BARS * MINUTE,
      toMs: NOW + MINUTE,
    });
    feed.answers[0]!.resolve([bar(27, '120'), bar(28, '130')]);
    await settle();
    expect(feed.candles.data.map((item) => item.close)).toEqual([120, 130]);
    expect(feed.markLine.data.map((item) => item.value)).toEqual([121.5, 129.25]);
    feed.stop();
  });

  it('is ready with the mark line alone when the interval has no trades, and moves it every pulse', async () => {
    const feed = setup({}, [mark(28, '130'), mark(29, '131')]);
    feed.answers[0]!.resolve([]);
    await settle();
    expect(feed.statuses).toEqual(['loading', 'ready']);
    expect(feed.model.barCount()).toBe(0);
    feed.markReplies.push([mark(29, '132'), mark(30, '133')]);
    vi.advanceTimersByTime(PULSE_MS);
    expect(feed.markQueries[1]).toMatchObject({ fromMs: bar(29, '').time });
    feed.answers[1]!.resolve([]);
    await settle();
    expect(feed.markLine.data.map((item) => item.value)).toEqual([130, 132, 133]);
    expect(feed.model.latestMarkTime()).toBe(bar(30, '').time);
    feed.stop();
  });

  it('shows the candles as before when the mark line cannot be loaded', async () => {
    const feed = setup({}, new Error('not there'));
    feed.answers[0]!.resolve([bar(28, '130')]);
    await settle();
    expect(feed.statuses).toEqual(['loading', 'ready']);
    expect(feed.candles.data).toHaveLength(1);
    expect(feed.markLine.data).toHaveLength(0);
    feed.stop();
  });

  it('asks for no mark line on weekly and monthly charts, which the record does not keep', () => {
    const feed = setup({ period: '1week' });
    expect(feed.queries[0]).toMatchObject({ period: '1week' });
    expect(feed.markQueries).toHaveLength(0);
    feed.stop();
  });
});
