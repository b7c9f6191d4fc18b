import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StrictMode } from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import enUS from 'antd/es/locale/en_US.js';
import type { KlinePayload } from '@fairex/shared/socket-events.ts';
import { Providers } from '../app/Providers.tsx';
import { setNightMode, setPriceColours } from '../app/preferences/preferences.ts';
import { jsonResponse, type FakeMarketSocket } from '../data/market-test-support.ts';
import type * as SocketModule from '../data/socket.ts';
import { fakeChartFactory } from './fake-chart.ts';
import { PriceChart } from './PriceChart.tsx';
import type { ChartPeriod } from './periods.ts';

const fake = vi.hoisted(() => ({ socket: null as FakeMarketSocket | null }));

vi.mock('../data/socket.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof SocketModule>();
  const { FakeMarketSocket } = await import('../data/market-test-support.ts');
  const socket = new FakeMarketSocket();
  fake.socket = socket;
  return { ...actual, socketManager: new actual.SocketManager({ createSocket: () => socket }) };
});

const MINUTE = 60_000;
const T0 = Date.UTC(2024, 4, 1, 6, 0);

function serverBar(minute: number, close: string) {
  return { time: T0 + minute * MINUTE, open: '100.00', high: '110.00', low: '90.00', close, volume: '2.5' };
}

let fetchMock = vi.fn<typeof fetch>();
const periodsAsked: string[] = [];
const symbolsAsked: string[] = [];

function answerHistory(bars = [serverBar(0, '101.00'), serverBar(1, '102.00')]): void {
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== '/api/currency/new_timeshar')
      return jsonResponse({ type: 'error', message: 'unexpected' }, 404);
    periodsAsked.push(url.searchParams.get('period') ?? '');
    symbolsAsked.push(url.searchParams.get('symbol') ?? '');
    return jsonResponse({ code: 1, msg: '', data: bars });
  });
}

function renderChart(props: { period?: ChartPeriod; onPeriodChange?: (period: ChartPeriod) => void } = {}) {
  const { factory, charts } = fakeChartFactory();
  const view = render(
    <StrictMode>
      <Providers language="en" antdLocale={enUS}>
        <PriceChart symbol="BTC/USDT" height={400} chartFactory={factory} {...props} />
      </Providers>
    </StrictMode>,
  );
  const rerenderWith = (next: { period?: ChartPeriod; symbol?: string }) =>
    view.rerender(
      <StrictMode>
        <Providers language="en" antdLocale={enUS}>
          <PriceChart symbol="BTC/USDT" height={400} chartFactory={factory} {...props} {...next} />
        </Providers>
      </StrictMode>,
    );
  return { ...view, charts, rerenderWith };
}

function kline(minute: number, close: string): KlinePayload {
  return { type: 'kline', symbol: 'BTC/USDT', period: '1min', change: '0', ...serverBar(minute, close) };
}

describe('PriceChart', () => {
  beforeEach(() => {
    fetchMock = vi.fn<typeof fetch>();
    periodsAsked.length = 0;
    symbolsAsked.length = 0;
    vi.stubGlobal('fetch', fetchMock);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    setNightMode(false);
    setPriceColours('green-up');
  });

  it('toggles indicators in place on the same chart and keeps the choice as a preference', async () => {
    localStorage.removeItem('chart_indicators');
    answerHistory();
    const { charts } = renderChart();
    await waitFor(() => expect(screen.getByTestId('price-chart').dataset.status).toBe('ready'));
    const chart = charts[1]!;
    expect(screen.getByTestId('indicator-vol').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByTestId('indicator-macd'));
    fireEvent.click(screen.getByTestId('indicator-vol'));
    expect(screen.getByTestId('price-chart').dataset.indicators).toBe('macd');
    expect(chart.series.filter((series) => series.pane === 1)).toHaveLength(3);
    expect(chart.series[2]!.options.visible).toBe(false); // the volume bars
    expect(charts.filter((item) => !item.removed)).toHaveLength(1);
    expect(localStorage.getItem('chart_indicators')).toBe('macd');
    localStorage.removeItem('chart_indicators');
  });

  it('keeps one living chart under StrictMode and removes it on unmount', async () => {
    answerHistory();
    const { charts, unmount } = renderChart();
    await waitFor(() => expect(screen.getByTestId('price-chart').dataset.status).toBe('ready'));
    // StrictMode mounts twice: the first chart is removed before the second is made.
    expect(charts.map((chart) => chart.removed)).toEqual([true, false]);
    const socket = fake.socket!;
    // The socket manager's own listener plus the chart's.
    expect(socket.listenerCount('kline')).toBe(2);
    unmount();
    expect(charts.every((chart) => chart.removed)).toBe(true);
    expect(socket.listenerCount('kline')).toBe(1);
    expect(
      socket.emitted.filter(([event]) => event === 'unsubscribe').map(([, payload]) => payload),
    ).toContainEqual({
      channel: 'kline:BTC/USDT:1min',
    });
  });

  it('moves with kline pushes through update() and keeps the chart through theme changes', async () => {
    answerHistory();
    const { charts } = renderChart();
    await waitFor(() => expect(screen.getByTestId('price-chart').dataset.status).toBe('ready'));
    const chart = charts[1]!;
    const candles = chart.series[0]!;
    expect(candles.data.map((item) => item.close)).toEqual([101, 102]);
    const setDataCalls = candles.setDataCalls;

    act(() => fake.socket!.push('kline', kline(1, '103.50')));
    act(() => fake.socket!.push('kline', { ...kline(2, '999'), symbol: 'ETH/USDT' }));
    expect(candles.data.map((item) => item.close)).toEqual([101, 103.5]);
    expect(screen.getByTestId('chart-legend').querySelector('[data-field="close"]')?.textContent).toBe(
      '103.50',
    );

    act(() => setNightMode(true));
    act(() => setPriceColours('red-up'));
    expect(charts).toHaveLength(2);
    expect(chart.removed).toBe(false);
    expect(chart.options.at(-1)).toMatchObject({ layout: { background: { color: '#141923' } } });
    expect(candles.options).toMatchObject({ upColor: '#f6465d' });
    expect(candles.setDataCalls).toBe(setDataCalls);
    expect(chart.resets).toBe(1);
  });

  it('switches intervals from the interval bar without making a new chart', async () => {
    answerHistory();
    const onPeriodChange = vi.fn();
    const { charts } = renderChart({ onPeriodChange });
    await waitFor(() => expect(screen.getByTestId('price-chart').dataset.status).toBe('ready'));
    const labels = screen.getAllByRole('radio').map((button) => button.textContent);
    expect(labels).toEqual(['Line', '1m', '5m', '15m', '30m', '1H', '1D', '1W', '1M']);
    fireEvent.click(screen.getByTestId('interval-1day'));
    expect(onPeriodChange).toHaveBeenCalledWith('1day');
    await waitFor(() => expect(periodsAsked).toContain('1day'));
    expect(screen.getByTestId('interval-1day').getAttribute('aria-checked')).toBe('true');
    expect(fake.socket!.subscriptions()).toContain('kline:BTC/USDT:1day');
    expect(charts).toHaveLength(2);
  });

  it('follows a controlled period', async () => {
    answerHistory();
    const onPeriodChange = vi.fn();
    const { charts, rerenderWith } = renderChart({ period: '5min', onPeriodChange });
    await waitFor(() => expect(periodsAsked).toContain('5min'));
    fireEvent.click(screen.getByTestId('interval-15min'));
    expect(onPeriodChange).toHaveBeenCalledWith('15min');
    // Nothing changes until the owner passes the new period.
    expect(screen.getByTestId('price-chart').dataset.period).toBe('5min');
    expect(periodsAsked).not.toContain('15min');
    periodsAsked.length = 0;
    rerenderWith({ period: 'realtime' });
    await waitFor(() => expect(periodsAsked).toEqual(['1min']));
    await waitFor(() => expect(screen.getByTestId('price-chart').dataset.status).toBe('ready'));
    const [candles, line] = charts[1]!.series;
    expect([candles!.options.visible, line!.options.visible]).toEqual([false, true]);
    expect(line!.data.map((item) => item.value)).toEqual([101, 102]);
    expect(charts).toHaveLength(2);
  });

  it('moves to another market on the same chart', async () => {
    answerHistory();
    const { charts, rerenderWith } = renderChart();
    await waitFor(() => expect(screen.getByTestId('price-chart').dataset.status).toBe('ready'));
    rerenderWith({ symbol: 'ETH/USDT' });
    await waitFor(() => expect(symbolsAsked).toContain('ETH/USDT'));
    await waitFor(() => expect(screen.getByTestId('price-chart').dataset.symbol).toBe('ETH/USDT'));
    const socket = fake.socket!;
    expect(socket.subscriptions()).toContain('kline:ETH/USDT:1min');
    expect(
      socket.emitted.filter(([event]) => event === 'unsubscribe').map(([, payload]) => payload),
    ).toContainEqual({
      channel: 'kline:BTC/USDT:1min',
    });
    expect(charts).toHaveLength(2);
    expect(charts[1]!.removed).toBe(false);
  });

  it('says when the history could not be loaded, and retries', async () => {
    fetchMock.mockImplementation(async () => jsonResponse({ code: -1, msg: 'Unknown market' }));
    renderChart();
    await screen.findByText('Unknown market');
    answerHistory();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByTestId('price-chart').dataset.status).toBe('ready'));
  });

  it('says when an interval has no trades yet', async () => {
    answerHistory([]);
    renderChart();
    await screen.findByText('No trades in this interval yet.');
  });
});
