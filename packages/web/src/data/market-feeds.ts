import { klineChannel, type KlinePayload } from '@fairex/shared/socket-events.ts';
import { socketManager, type ConnectionStatus, type SocketManager } from './socket.ts';

// Realtime bars for charts, outside React. The feed store keeps only the latest bar per channel and
// applies bursts every 50 ms, which suits components; a chart instead wants every `kline` push as it
// arrives (the last push of a closing bar and the first of the next can come together), so it listens
// to the event directly while holding the channel's subscription.

/** Calls `listener` with every bar pushed for one market and period; returns the function that stops. */
export function subscribeBars(
  symbol: string,
  period: string,
  listener: (bar: KlinePayload) => void,
  manager: SocketManager = socketManager,
): () => void {
  const release = manager.subscribe(klineChannel(symbol, period));
  const stopListening = manager.on('kline', (payload) => {
    if (payload.symbol === symbol && payload.period === period) listener(payload);
  });
  return () => {
    stopListening();
    release();
  };
}

/**
 * Calls `listener` each time the realtime connection comes back after a drop or a pause: pushes sent
 * while it was away are lost, so a chart fetches what it missed.
 */
export function onReconnect(listener: () => void, manager: SocketManager = socketManager): () => void {
  let previous: ConnectionStatus = manager.feeds.getState().connection;
  let wasLive = previous === 'live';
  return manager.feeds.subscribe((state) => {
    if (state.connection === previous) return;
    previous = state.connection;
    if (state.connection === 'live') {
      if (wasLive) listener();
      wasLive = true;
    }
  });
}
