// socket.io attached to the Fastify server. Public events go to channel rooms that sockets subscribe to;
// private events go to `user:<id>`, which a socket joins only after proving a session token. With a Redis
// URL the rooms span every server process through the Redis adapter. Public events leave through the
// channel fan-out (fanout.ts): one write per subscriber per channel per turn of the event loop.
//
// Clients written for the template's API never subscribe: they connect (socket.io v2, Engine.IO 3), emit
// `login` with a bare value and listen. Such a socket is joined to the template's public channels at once
// (`joinTemplateChannels`, at most TEMPLATE_CHANNELS_MAX of them, the list supplied by market data); a
// socket of Fairex's own web app (v4, `login` with `{token}`) joins only what it subscribes to.
import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Socket } from 'socket.io';
import { Server } from 'socket.io';
import type {
  ClientToServerEvents,
  EventPayload,
  Language,
  PrivateEventName,
  PublicEventName,
  ServerToClientEvents,
  SocketAck,
} from '@fairex/shared';
import {
  DEFAULT_LANGUAGE,
  isPublicChannel,
  MAX_CHANNELS_PER_SOCKET,
  resolveLanguage,
  translate,
} from '@fairex/shared';
import type { AuthUser } from '../auth/sessions.ts';
import type { FanoutStats } from './fanout.ts';
import { ChannelFanout } from './fanout.ts';
import { CORS_ALLOWED_HEADERS } from '../plugins/external/index.ts';

export interface SocketData {
  userId?: number;
  tokenHash?: string;
  channels: Set<string>;
  lang: Language;
}

/** Between server processes (Redis adapter): a public publish, fanned out by each process to its sockets. */
export interface InterServerEvents {
  'fairex:publish': (channel: string, event: string, payload: unknown) => void;
}

export type RealtimeServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;
export type RealtimeSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;

export interface Realtime {
  readonly io: RealtimeServer;
  /** Sends a public event to every socket subscribed to `channel` (on every process). */
  publish<E extends PublicEventName>(channel: string, event: E, payload: EventPayload<E>): void;
  /** Sends a private event to every socket logged in as the user (on every process). */
  toUser<E extends PrivateEventName>(userId: number, event: E, payload: EventPayload<E>): void;
  /**
   * Whether the user may have a logged-in socket: a local one, or any at all when other processes share the
   * rooms (Redis). Lets a caller skip building a private event nobody would receive.
   */
  mayReachUser(userId: number): boolean;
  /** Sockets that logged in with this session stop receiving the user's events (logout). */
  endSession(tokenHash: string, userId: number): void;
  /** Every socket of the user stops receiving the user's events (password change). */
  endUser(userId: number): void;
  /** Counters of the public fan-out of this process. */
  fanoutStats(): Readonly<FanoutStats>;
  /** Sets where the public channels of a template-era client come from (market data supplies them). */
  setTemplateChannels(channels: () => readonly string[]): void;
  /**
   * Calls `listener` after a socket has joined public channels (a subscription, or a template-era client's
   * automatic channels), before the subscription is acknowledged: market data sends their snapshots.
   */
  onJoin(listener: JoinListener): void;
}

export type JoinListener = (socket: RealtimeSocket, channels: readonly string[]) => void;

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

export interface RealtimeOptions {
  redisUrl?: string;
  /** Redis channel prefix of the adapter (default "socket.io"); lets unrelated deployments share a Redis. */
  redisKey?: string;
  /** Web origins whose pages may open the polling transport (CORS_ORIGINS); none: same origin only. */
  corsOrigins?: readonly string[];
  /** Resolves a token to its user; the app passes its session authenticator. */
  authenticate(token: string): Promise<AuthUser | null>;
}

const REDIS_READY_TIMEOUT_MS = 10_000;

/**
 * Public channels a template-era socket is joined to without asking. The rest of MAX_CHANNELS_PER_SOCKET
 * stays free for its own subscriptions.
 */
export const TEMPLATE_CHANNELS_MAX = 24;

export const userRoom = (userId: number) => `user:${userId}`;
const sessionRoom = (tokenHash: string) => `session:${tokenHash}`;

async function realtimePlugin(app: FastifyInstance, options: RealtimeOptions): Promise<void> {
  const io: RealtimeServer = new Server(app.server, {
    path: '/socket.io/',
    // The template's client speaks socket.io v2 (Engine.IO 3).
    allowEIO3: true,
    serveClient: false,
    maxHttpBufferSize: 16 * 1024,
    // The same origins as the HTTP API. (Browsers apply CORS to the polling transport only; a WebSocket
    // from any page connects, and gets nothing private without a token it has to hold already.)
    ...(options.corsOrigins !== undefined && options.corsOrigins.length > 0
      ? {
          cors: {
            origin: [...options.corsOrigins],
            methods: ['GET', 'POST'],
            allowedHeaders: CORS_ALLOWED_HEADERS,
            credentials: false,
          },
        }
      : {}),
  });
  let redisClients: Redis[] = [];
  if (options.redisUrl) {
    // Loaded only when a deployment uses Redis: the embedded default does not pay for it at start-up.
    const { createAdapter } = await import('@socket.io/redis-adapter');
    redisClients = await connectRedis(options.redisUrl);
    const [pub, sub] = redisClients as [Redis, Redis];
    io.adapter(createAdapter(pub, sub, { key: options.redisKey ?? 'socket.io' }));
  }

  const hooks: ConnectionHooks = { templateChannels: () => [], joinListeners: [] };
  io.on('connection', (socket) => onConnection(app, options, hooks, socket));

  const fanout = new ChannelFanout(io.of('/'));
  if (options.redisUrl) {
    // Publishes of the other processes, fanned out to this process's sockets.
    io.on('fairex:publish', (channel, event, payload) => fanout.publish(channel, event, payload));
  }

  const realtime: Realtime = {
    io,
    publish: (channel, event, payload) => {
      fanout.publish(channel, event, payload);
      if (options.redisUrl) {
        io.serverSideEmit('fairex:publish', channel, event, payload);
      }
    },
    toUser: (userId, event, payload) => {
      (io.to(userRoom(userId)).emit as (name: string, data: unknown) => boolean)(event, payload);
    },
    mayReachUser: (userId) =>
      options.redisUrl !== undefined || io.of('/').adapter.rooms.has(userRoom(userId)),
    endSession: (tokenHash, userId) =>
      io.in(sessionRoom(tokenHash)).socketsLeave([userRoom(userId), sessionRoom(tokenHash)]),
    endUser: (userId) => io.in(userRoom(userId)).socketsLeave(userRoom(userId)),
    fanoutStats: () => ({ ...fanout.stats }),
    setTemplateChannels: (channels) => {
      hooks.templateChannels = channels;
    },
    onJoin: (listener) => {
      hooks.joinListeners.push(listener);
    },
  };
  app.decorate('realtime', realtime);

  // Sockets would otherwise keep the HTTP server from closing.
  app.addHook('preClose', async () => {
    io.local.disconnectSockets(true);
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    await io.of('/').adapter.close?.();
    await Promise.all(redisClients.map((client) => client.quit().catch(() => client.disconnect())));
  });
}

async function connectRedis(url: string): Promise<Redis[]> {
  const { Redis } = await import('ioredis');
  const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const sub = pub.duplicate();
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), REDIS_READY_TIMEOUT_MS);
  try {
    await Promise.all([pub.connect(), sub.connect()]);
    await Promise.all(
      [pub, sub].map((client) =>
        client.status === 'ready' ? undefined : once(client, 'ready', { signal: timeout.signal }),
      ),
    );
    return [pub, sub];
  } catch (error) {
    pub.disconnect();
    sub.disconnect();
    throw new Error(`Redis at REDIS_URL is unreachable: ${(error as Error).message}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

interface ConnectionHooks {
  templateChannels: () => readonly string[];
  joinListeners: JoinListener[];
}

function onConnection(
  app: FastifyInstance,
  options: RealtimeOptions,
  hooks: ConnectionHooks,
  socket: RealtimeSocket,
): void {
  const query = socket.handshake.query as Record<string, unknown>;
  socket.data.channels = new Set();
  socket.data.lang =
    resolveLanguage(query.lang) ?? resolveLanguage(socket.handshake.headers.lang) ?? DEFAULT_LANGUAGE;
  const t = (key: Parameters<typeof translate>[1]) => translate(socket.data.lang, key);
  const answer = (ack: unknown, reply: SocketAck) => {
    if (typeof ack === 'function') ack(reply);
  };
  const failed = (ack: unknown) => (error: unknown) => {
    app.log.error({ err: error }, 'socket handler failed');
    answer(ack, { type: 'error', message: t('error.internal') });
  };

  /** Joins public channels, then tells the join listeners (snapshots). */
  const join = async (channels: readonly string[]) => {
    if (channels.length === 0) return;
    for (const channel of channels) socket.data.channels.add(channel);
    await socket.join([...channels]);
    for (const listener of hooks.joinListeners) listener(socket, channels);
  };

  // The template's public channels, once per socket, bounded (see TEMPLATE_CHANNELS_MAX).
  let templateJoined = false;
  const joinTemplateChannels = () => {
    if (templateJoined) return;
    templateJoined = true;
    const room = MAX_CHANNELS_PER_SOCKET - socket.data.channels.size;
    const channels = hooks
      .templateChannels()
      .filter((channel) => isPublicChannel(channel) && !socket.data.channels.has(channel))
      .slice(0, Math.min(TEMPLATE_CHANNELS_MAX, room));
    join(channels).catch(failed(undefined));
  };
  // A socket.io v2 client speaks Engine.IO 3: only template-era clients do.
  if (socket.conn.protocol === 3) joinTemplateChannels();

  const login = async (token: unknown): Promise<SocketAck> => {
    const user = typeof token === 'string' ? await options.authenticate(token) : null;
    if (!user) return { type: '999', message: t('auth.login_required') };
    leaveUser(socket);
    socket.data.userId = user.id;
    socket.data.tokenHash = user.tokenHash;
    await socket.join([userRoom(user.id), sessionRoom(user.tokenHash)]);
    return { type: 'ok', message: t('common.ok') };
  };

  // v4 clients may prove their token in the handshake instead of emitting login.
  const handshakeToken = (socket.handshake.auth as Record<string, unknown> | undefined)?.token;
  if (handshakeToken !== undefined) login(handshakeToken).catch(failed(undefined));

  socket.on('login', (payload: unknown, ack) => {
    // Fairex's web app sends `{token}`. Anything else is the template's style: a bare token, or the bare
    // user id the template's client sends, which proves nothing (answered 999) but still means the socket
    // only listens, so it gets the public channels. Only a token joins a user's room.
    const carriesToken = typeof payload === 'object' && payload !== null && 'token' in payload;
    if (!carriesToken) joinTemplateChannels();
    const token = carriesToken ? (payload as { token?: unknown }).token : payload;
    login(token)
      .then((reply) => answer(ack, reply))
      .catch(failed(ack));
  });
  socket.on('logout', (ack) => {
    leaveUser(socket);
    answer(ack, { type: 'ok', message: t('common.ok') });
  });
  socket.on('subscribe', (payload, ack) => {
    const channel = typeof payload === 'object' && payload !== null ? payload.channel : undefined;
    if (!isPublicChannel(channel))
      return answer(ack, { type: 'error', message: t('realtime.invalid_channel') });
    if (!socket.data.channels.has(channel) && socket.data.channels.size >= MAX_CHANNELS_PER_SOCKET) {
      return answer(ack, { type: 'error', message: t('realtime.too_many_channels') });
    }
    join([channel])
      .then(() => answer(ack, { type: 'ok', message: t('common.ok') }))
      .catch(failed(ack));
  });
  socket.on('unsubscribe', (payload, ack) => {
    const channel = typeof payload === 'object' && payload !== null ? payload.channel : undefined;
    if (!isPublicChannel(channel))
      return answer(ack, { type: 'error', message: t('realtime.invalid_channel') });
    socket.data.channels.delete(channel);
    Promise.resolve(socket.leave(channel))
      .then(() => answer(ack, { type: 'ok', message: t('common.ok') }))
      .catch(failed(ack));
  });
}

function leaveUser(socket: RealtimeSocket): void {
  const { userId, tokenHash } = socket.data;
  if (userId !== undefined) void socket.leave(userRoom(userId));
  if (tokenHash !== undefined) void socket.leave(sessionRoom(tokenHash));
  socket.data.userId = undefined;
  socket.data.tokenHash = undefined;
}

export default fp(realtimePlugin, { name: 'realtime' });
