import { useEffect, useRef } from 'react';
import { useStore } from 'zustand';
import type { DaymarketPayload, KlinePayload, ServerToClientEvents } from '@fairex/shared/socket-events.ts';
import { socketManager, type ConnectionStatus, type MarketFeed } from './socket.ts';

// React's view of the realtime feeds: each hook subscribes its channel while the component is
// mounted and reads only the slice it needs, so unrelated messages do not re-render it.

function useChannel(channel: string | null): void {
  useEffect(() => (channel === null ? undefined : socketManager.subscribe(channel)), [channel]);
}

export function useConnectionStatus(): ConnectionStatus {
  return useStore(socketManager.feeds, (feeds) => feeds.connection);
}

/**
 * Whether the live figures on screen stopped updating: the connection dropped (or is paused while the tab
 * is hidden, or is coming back after either) after it had been live. Screens grey such figures out, so a
 * frozen price is never taken for a quiet market; the reconnect subscribes again and refetches.
 */
export function isFeedStale(connection: ConnectionStatus, everLive: boolean): boolean {
  return connection === 'offline' || connection === 'paused' || (connection === 'connecting' && everLive);
}

export function useFeedStale(): boolean {
  return useStore(socketManager.feeds, (feeds) => isFeedStale(feeds.connection, feeds.everLive));
}

/** The 24-hour tickers of every market, by symbol. */
export function useTickers(): Record<string, DaymarketPayload> {
  useChannel('daymarket');
  return useStore(socketManager.feeds, (feeds) => feeds.tickers);
}

export function useMarketFeed(symbol: string | null): MarketFeed | undefined {
  useChannel(symbol === null ? null : `market:${symbol}`);
  return useStore(socketManager.feeds, (feeds) => (symbol === null ? undefined : feeds.markets[symbol]));
}

export function useKlineBar(symbol: string | null, period: string): KlinePayload | undefined {
  const channel = symbol === null ? null : `kline:${symbol}:${period}`;
  useChannel(channel);
  return useStore(socketManager.feeds, (feeds) => (channel === null ? undefined : feeds.bars[channel]));
}

/**
 * Subscribes the `market:<symbol>` channels of several markets while mounted, for events pushed there
 * that are read with useUncheckedSocketEvent (the price record's `price_head`). A socket may hold a
 * limited number of channels, so at most `limit` markets are subscribed.
 */
export function useMarketChannels(symbols: readonly string[], limit = 16): void {
  const key = symbols.slice(0, limit).join(',');
  useEffect(() => {
    if (key === '') return undefined;
    const releases = key.split(',').map((symbol) => socketManager.subscribe(`market:${symbol}`));
    return () => {
      for (const release of releases) release();
    };
  }, [key]);
}

/** Calls `listener` for each server event of one kind (private events such as update_balance). */
export function useSocketEvent<E extends keyof ServerToClientEvents>(
  event: E,
  listener: ServerToClientEvents[E],
): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    const forward = ((payload: never) =>
      (latest.current as (payload: never) => void)(payload)) as ServerToClientEvents[E];
    return socketManager.on(event, forward);
  }, [event]);
}
