import type { SocketLike } from './socket.ts';

// Test support for the market screens: an in-memory socket.io client socket. Imported by tests only.

type Handler = (...args: never[]) => void;

export class FakeMarketSocket implements SocketLike {
  connected = false;
  readonly emitted: Array<[string, unknown]> = [];
  private readonly handlers = new Map<string, Set<Handler>>();

  on(event: string, listener: Handler): void {
    const set = this.handlers.get(event) ?? new Set();
    set.add(listener);
    this.handlers.set(event, set);
  }

  off(event: string, listener: Handler): void {
    this.handlers.get(event)?.delete(listener);
  }

  emit(event: string, ...args: unknown[]): void {
    this.emitted.push([event, args[0]]);
    const ack = args.find((arg) => typeof arg === 'function') as ((reply: unknown) => void) | undefined;
    ack?.({ type: 'ok', message: '' });
  }

  connect(): void {
    this.open();
  }

  disconnect(): void {
    this.connected = false;
    this.push('disconnect');
  }

  open(): void {
    if (this.connected) return;
    this.connected = true;
    this.push('connect');
  }

  push(event: string, payload?: unknown): void {
    for (const handler of [...(this.handlers.get(event) ?? [])])
      (handler as (payload: unknown) => void)(payload);
  }

  listenerCount(event: string): number {
    return this.handlers.get(event)?.size ?? 0;
  }

  subscriptions(): string[] {
    return this.emitted
      .filter(([event]) => event === 'subscribe')
      .map(([, payload]) => (payload as { channel: string }).channel);
  }
}

/** A JSON answer as fetch would give it. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
