// Fastify plugin: recovers the engine at start, decorates `fastify.runner` (submit, onCommitted) and
// `fastify.engine` (reads), drains and commits pending commands when the app closes, and gives every request
// read-your-writes (read-your-writes.ts): a signed-in request first waits, bounded, until the projections hold
// what its user was last acknowledged.
import type { Command, Engine, EngineEvent } from '@fairex/engine';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Store } from '../store/index.ts';
import type { RequestWrites } from './read-your-writes.ts';
import { awaitAcknowledged, runWithRequestWrites, waitForUser } from './read-your-writes.ts';
import type { EngineRunner } from './runner.ts';
import { createEngineRunner } from './create.ts';
import type { EngineRunnerOptions } from './create.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's acknowledged writes (read-your-writes.ts); null before its first hook ran. */
    writes: RequestWrites | null;
  }
  interface FastifyInstance {
    runner: EngineRunner<Command, EngineEvent, Engine>;
    /**
     * Waits (bounded, else refuses with error.catching_up) until the projections hold every command
     * acknowledged so far: for readers of every user's rows, such as the back office.
     */
    awaitAcknowledged(): Promise<void>;
    /** The live engine, for reads. Writes go through `runner.submit`. */
    engine: Engine;
  }
}

export interface EngineRunnerPluginOptions extends Partial<Omit<EngineRunnerOptions, 'logger'>> {
  /** Default: `fastify.store`, registered before this plugin. */
  store?: Pick<Store, 'transaction' | 'query'> & { kind?: Store['kind'] };
  /**
   * Longest time a signed-in request waits for the projector to reach its user's last acknowledged write
   * before it is refused with error.catching_up (default 2,000 ms; READ_YOUR_WRITES_WAIT_MS).
   */
  readYourWritesWaitMs?: number;
}

async function engineRunner(fastify: FastifyInstance, options: EngineRunnerPluginOptions): Promise<void> {
  const store = options.store ?? (fastify.hasDecorator('store') ? fastify.store : undefined);
  if (store === undefined)
    throw new Error('the engine runner needs a store: register the store plugin first');
  const runner = await createEngineRunner({
    ...options,
    store,
    logger: fastify.log,
    onFatal:
      options.onFatal ??
      ((error) => fastify.log.fatal({ err: error }, 'engine runner stopped: restart the process to recover')),
  });
  fastify.decorate('runner', runner);
  fastify.decorate('engine', runner.engine);
  fastify.addHook('onClose', () => runner.close());

  const waitMs = options.readYourWritesWaitMs ?? 2_000;
  fastify.decorate('awaitAcknowledged', () => awaitAcknowledged(runner, waitMs));
  fastify.decorateRequest('writes', null);
  // Callback-style hooks: the rest of the request (later hooks, the handler, its awaits) runs inside the
  // context. onRequest opens it; preHandler enters it again, since body parsing ran outside it.
  fastify.addHook('onRequest', (request, _reply, done) => {
    request.writes = { runner, waitMs, acknowledgedSeq: 0 };
    runWithRequestWrites(request.writes, done);
  });
  fastify.addHook('preHandler', (request, _reply, done) => {
    if (request.writes === null) done();
    else runWithRequestWrites(request.writes, done);
  });
  // Before the reply leaves: the user's next request cannot be read before this ran.
  fastify.addHook('onSend', (request, _reply, payload, done) => {
    const seq = request.writes?.acknowledgedSeq ?? 0;
    if (seq > 0 && request.user) runner.noteAcknowledged(request.user.id, seq);
    done(null, payload);
  });
  if (fastify.hasDecorator('readYourWrites')) {
    fastify.readYourWrites.wait = (user) => waitForUser(runner, user.id, waitMs);
  }
}

export const engineRunnerPlugin = fp(engineRunner, { name: 'engine-runner', fastify: '5.x' });
