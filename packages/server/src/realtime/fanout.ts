// Public fan-out: one write per socket per channel per turn of the event loop.
//
// A market update is several events on one channel (`market_depth`, `market_detail`, `transaction`), and
// ten thousand subscribers each get all of them ten times a second. Sent one by one through socket.io, each
// event to each socket walks the socket.io, Engine.IO and ws layers and makes its own system call; that
// per-message cost, not the encoding, is what limits a broadcast. So publishes are queued per channel and
// flushed once per turn of the event loop: every event is encoded once into its WebSocket frame (Engine.IO
// message packet `4` around the socket.io event packet `2[...]`, the same bytes socket.io sends), the frames
// of a channel are joined into one buffer, and that one buffer is written to the TCP socket of every local
// subscriber connected over WebSocket: one system call per socket, no copy per socket.
//
// Sockets on the HTTP long-polling transport, or whose connection does not expose its TCP socket, get the
// same events through socket.io's own emit. A subscriber whose socket has more than SLOW_CONSUMER_BYTES
// unsent skips the update: every public event carries the full state of what it describes (the book's
// levels, the latest trades, the bar, the ticker), so the next one replaces what was skipped, and a stalled
// client cannot make the server buffer without bound.
//
// Across processes (Redis adapter) every publish is also handed to the other processes with
// `serverSideEmit`, and each process fans out to its own sockets the same way.
import type { Socket as NetSocket } from 'node:net';
import type { Namespace, Socket } from 'socket.io';

/** Bytes a subscriber may have unsent before public updates skip it. */
export const SLOW_CONSUMER_BYTES = 1024 * 1024;

const WS_OPEN = 1;

/** The events published to one channel in this turn, in order. */
type Queued = [event: string, payload: unknown][];

/** The unmasked WebSocket text frame (RFC 6455 section 5.2) carrying `payload`, as a server sends it. */
export function textFrame(payload: Buffer): Buffer {
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81; // FIN, text
  if (length < 126) {
    frame[1] = length;
  } else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  payload.copy(frame, headerLength);
  return frame;
}

interface EngineWebSocket {
  readyState?: number;
  _socket?: NetSocket | null;
}

/** The TCP socket under a socket.io socket on the WebSocket transport, or null when there is none. */
function tcpSocketOf(socket: Socket): NetSocket | null {
  const transport = socket.conn.transport as unknown as {
    name?: string;
    socket?: EngineWebSocket;
    writable?: boolean;
  };
  // While Engine.IO has a write in flight it queues what follows; going around the queue then could put an
  // update before the snapshot a subscription just sent, so such a socket takes the emit path this time.
  if (transport.name !== 'websocket' || transport.writable !== true || socket.conn.readyState !== 'open') {
    return null;
  }
  const ws = transport.socket;
  if (ws?.readyState !== WS_OPEN) return null;
  const tcp = ws._socket;
  return tcp && !tcp.destroyed && tcp.writable ? tcp : null;
}

export interface FanoutStats {
  /** Buffers written straight to TCP sockets. */
  direct: number;
  /** Events sent through socket.io's emit (polling, or no TCP socket). */
  emitted: number;
  /** Updates skipped for slow consumers. */
  skipped: number;
}

export class ChannelFanout {
  readonly #namespace: Namespace;
  readonly #queued = new Map<string, Queued>();
  #scheduled = false;
  readonly stats: FanoutStats = { direct: 0, emitted: 0, skipped: 0 };

  constructor(namespace: Namespace) {
    this.#namespace = namespace;
  }

  /** Queues an event for the local subscribers of `channel`; sent at the end of this turn. */
  publish(channel: string, event: string, payload: unknown): void {
    let queued = this.#queued.get(channel);
    if (queued === undefined) {
      queued = [];
      this.#queued.set(channel, queued);
    }
    queued.push([event, payload]);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.flush);
    }
  }

  /** Sends everything queued now. */
  readonly flush = (): void => {
    this.#scheduled = false;
    const queued = [...this.#queued];
    this.#queued.clear();
    for (const [channel, events] of queued) this.#send(channel, events);
  };

  #send(channel: string, events: Queued): void {
    const members = this.#namespace.adapter.rooms.get(channel);
    if (members === undefined || members.size === 0) return;
    let frames: Buffer | null = null;
    for (const id of members) {
      const socket = this.#namespace.sockets.get(id);
      if (socket === undefined) continue;
      const tcp = tcpSocketOf(socket);
      if (tcp === null) {
        for (const [event, payload] of events) {
          (socket.emit as (name: string, data: unknown) => boolean)(event, payload);
          this.stats.emitted++;
        }
        continue;
      }
      if (tcp.writableLength > SLOW_CONSUMER_BYTES) {
        this.stats.skipped++;
        continue;
      }
      // Encoded once, for the first subscriber on WebSocket: Engine.IO message packet `4` around the
      // socket.io event packet `2[...]`.
      frames ??= Buffer.concat(
        events.map(([event, payload]) => textFrame(Buffer.from(`42${JSON.stringify([event, payload])}`))),
      );
      tcp.write(frames);
      this.stats.direct++;
    }
  }
}
