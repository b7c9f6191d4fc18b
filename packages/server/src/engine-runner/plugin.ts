// Fastify plugin: recovers the engine at start, decorates `fastify.runner` (submit, onCommitted) and
// `fastify.engine` (reads), and drains and commits pending commands when the app closes.
import type { Command, Engine, EngineEvent } from '@fairex/engine';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Store } from '../store/index.ts';
import type { EngineRunner } from './runner.ts';
import { createEngineRunner } from './create.ts';
import type { EngineRunnerOptions } from './create.ts';

declare module 'fastify' {
  interface FastifyInstance {
    runner: EngineRunner<Command, EngineEvent, Engine>;
    /** The live engine, for reads. Writes go through `runner.submit`. */
    engine: Engine;
  }
}

export interface EngineRunnerPluginOptions extends Partial<Omit<EngineRunnerOptions, 'logger'>> {
  /** Default: `fastify.store`, registered before this plugin. */
  store?: Pick<Store, 'transaction' | 'query'> & { kind?: Store['kind'] };
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
}

export const engineRunnerPlugin = fp(engineRunner, { name: 'engine-runner', fastify: '5.x' });
