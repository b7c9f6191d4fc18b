// `my_fill` through a listening app and a socket.io client: a fill of a user's own order reaches that user's
// room on any pair, with no market channel subscribed, to both sides of the trade with their own order,
// side, role and fee, and to nobody else.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Socket as ClientSocket } from 'socket.io-client';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientToServerEvents, MyFillPayload, ServerToClientEvents, SocketAck } from '@fairex/shared';
import { ETH, ETH_PAIR, USDT, startSpotTestApp, type SpotTestApp, type Trader } from './spot-app.ts';

type Socket = ClientSocket<ServerToClientEvents, ClientToServerEvents>;

let spot: SpotTestApp;
let app: FastifyInstance;
let url: string;
const sockets: Socket[] = [];

async function signedInSocket(trader: Trader): Promise<{ socket: Socket; fills: MyFillPayload[] }> {
  const socket: Socket = connect(url, { path: '/socket.io/', transports: ['websocket'], forceNew: true });
  sockets.push(socket);
  const fills: MyFillPayload[] = [];
  socket.on('my_fill', (payload) => void fills.push(payload));
  const ack = await new Promise<SocketAck>((resolve) =>
    socket.emit('login', { token: trader.token }, resolve),
  );
  expect(ack.type).toBe('ok');
  return { socket, fills };
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  spot = await startSpotTestApp();
  app = spot.app;
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await spot?.close();
});

describe('my_fill', () => {
  it('tells both sides of a fill of their own order, on any pair, and nobody else', async () => {
    const seller = await spot.trader();
    const buyer = await spot.trader();
    const stranger = await spot.trader();
    await spot.deposit(seller.id, ETH, '10', 8);
    await spot.deposit(buyer.id, USDT, '10000', 6);
    const sellerSide = await signedInSocket(seller);
    const buyerSide = await signedInSocket(buyer);
    const strangerSide = await signedInSocket(stranger);
    const acknowledged: [number | string, number][] = [];
    const noteAcknowledged = app.runner.noteAcknowledged.bind(app.runner);
    app.runner.noteAcknowledged = (key, seq) => {
      acknowledged.push([key, seq]);
      noteAcknowledged(key, seq);
    };

    // ETH/USDT: nobody subscribed to its channel; the seller rests, the buyer meets it for part of it.
    const rest = await spot.call(
      '/transaction/out',
      { ...ETH_PAIR, price: '2000', num: '1.5', mode: 2 },
      seller.token,
    );
    expect(rest.type).toBe('ok');
    const take = await spot.call(
      '/transaction/in',
      { ...ETH_PAIR, price: '2000', num: '0.5', mode: 2 },
      buyer.token,
    );
    expect(take.type).toBe('ok');

    await until(() => sellerSide.fills.length === 1 && buyerSide.fills.length === 1);
    const [sold] = sellerSide.fills as [MyFillPayload];
    const [bought] = buyerSide.fills as [MyFillPayload];
    expect(sold).toMatchObject({
      type: 'my_fill',
      symbol: 'ETH/USDT',
      legal_id: USDT,
      currency_id: ETH,
      side: 'sell',
      role: 'maker',
      price: '2000.00',
      number: '0.5000',
      total: '1000.000000',
      fee: '1.000000',
      fee_currency: 'USDT',
    });
    expect(bought).toMatchObject({
      type: 'my_fill',
      symbol: 'ETH/USDT',
      side: 'buy',
      role: 'taker',
      price: '2000.00',
      number: '0.5000',
      total: '1000.000000',
      fee: '0.00050000',
      fee_currency: 'ETH',
    });
    expect(sold.trade_id).toBe(bought.trade_id);
    expect(sold.order_id).not.toBe(bought.order_id);
    expect(sold.time).toBeGreaterThan(0);

    // Told of the fill, the seller's next read waits for the projections to hold it (read-your-writes): the
    // seller counts as acknowledged up to the buyer's command that filled the order, not only up to their own.
    const seqsOf = (id: number) => acknowledged.filter(([key]) => key === id).map(([, seq]) => seq);
    const takenAt = Math.max(...seqsOf(buyer.id));
    expect(takenAt).toBeGreaterThan(0);
    expect(Math.max(...seqsOf(seller.id))).toBeGreaterThanOrEqual(takenAt);

    // A moment more: the stranger heard nothing, and nobody heard twice.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(strangerSide.fills).toEqual([]);
    expect(sellerSide.fills).toHaveLength(1);
    expect(buyerSide.fills).toHaveLength(1);
  });
});
