import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KlinePayload } from '@fairex/shared/socket-events.ts';
import type { Bar, BarQuery } from '../data/market.ts';
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

function setup(overrides: Partial<ChartFeedOptions> = {}) {
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
  const stop = startChartFeed(model, {
    symbol: 'BTC/USDT',
    period: '1min',
    onStatus: (status) => statuses.push(status),
    fetchBars,
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
  return {
    model,
    candles,
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
});
