// The real engine behind the runner's EngineKit surface.
import { createHash } from 'node:crypto';
import { decodeEnvelope, decodeEnvelopeBytes, encodeEnvelope, Engine } from '@fairex/engine';
import type { Command, EngineCreateOptions, EngineEvent } from '@fairex/engine';
import type { EngineKit, RunnerEnvelope } from './types.ts';

export type ExchangeKit = EngineKit<Command, EngineEvent, Engine>;

/**
 * `options` only shape a new, empty engine (idempotency window, open-order limit); they are part of the
 * engine's state, so an engine restored from a snapshot keeps the options it was created with.
 */
export function engineKit(options: EngineCreateOptions = {}): ExchangeKit {
  return {
    create: () => Engine.create(options),
    restore: (text) => Engine.restore(text, options.book === undefined ? {} : { book: options.book }),
    encodeEnvelope: (envelope: RunnerEnvelope<Command>) => encodeEnvelope(envelope),
    decodeEnvelope: (text: string) => decodeEnvelope(text),
    decodeEnvelopeBytes: (bytes: Uint8Array, start: number, end: number) =>
      decodeEnvelopeBytes(bytes, start, end),
    // The engine defines its state hash as SHA-256 of its snapshot text; node:crypto computes the same
    // digest natively, an order of magnitude faster than the engine's dependency-free implementation.
    hashSnapshot: (text: string) => createHash('sha256').update(text, 'utf8').digest('hex'),
  };
}
