// One child process of the seconds-contract benchmark (micro-bench.ts): opens one socket.io connection per
// user over WebSocket, the way the web app does, and records when each settled order's `closed_microorder`
// arrives (wall clock, sub-millisecond, the same clock the parent reads). A message may carry several orders
// of its user (`orders`); each order counts as delivered when its message arrives and is parsed.
import { performance } from 'node:perf_hooks';
import type { Socket } from 'socket.io-client';
import { io } from 'socket.io-client';

export type MicroClientRequest =
  { type: 'connect'; url: string; users: number[] } | { type: 'collect' } | { type: 'finish' };

export type MicroClientReply =
  { type: 'connected'; connected: number } | { type: 'collected'; received: number[] };

const now = () => performance.timeOrigin + performance.now();
const sockets: Socket[] = [];
let received: number[] = [];

function send(message: MicroClientReply): void {
  process.send?.(message);
}

async function connectAll(url: string, users: number[]): Promise<void> {
  await Promise.all(
    users.map(
      (userId) =>
        new Promise<void>((resolve, reject) => {
          const socket = io(url, {
            transports: ['websocket'],
            auth: { userId },
            reconnection: false,
            timeout: 30_000,
          });
          sockets.push(socket);
          socket.on('closed_microorder', (payload: { orders?: unknown[] }) => {
            const at = now();
            const count = Array.isArray(payload.orders) ? payload.orders.length : 1;
            for (let index = 0; index < count; index++) received.push(at);
          });
          // The server acknowledges once the socket is in its user's room.
          socket.once('joined', () => resolve());
          socket.once('connect_error', reject);
        }),
    ),
  );
}

process.on('message', (message: MicroClientRequest) => {
  if (message.type === 'connect') {
    connectAll(message.url, message.users).then(
      () => send({ type: 'connected', connected: sockets.length }),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  } else if (message.type === 'collect') {
    send({ type: 'collected', received });
    received = [];
  } else {
    for (const socket of sockets) socket.disconnect();
    process.exit(0);
  }
});
