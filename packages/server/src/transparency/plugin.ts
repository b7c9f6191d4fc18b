// The transparency log's server area (docs/transparency.md): `app.transparency` with the log key, its reads
// and proofs, and the witnesses' cosignatures; and the start-up step that starts the engine's log with the
// configured origin and checkpoint interval when it is not started yet (a journaled command, so replay
// starts it at the same place). The projection is registered with the runner (exchange-runner.ts) and signs
// with the key of the same LogKeyRef: the one app.ts read before the runner recovered, or the one made here
// when the log starts.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Ed25519Key, VerifierKey } from './note.ts';
import { LOG_KEY_TYPE, parseVerifierKey, verifierKey } from './note.ts';
import { LogReads } from './proofs.ts';
import type { CosignatureResult } from './cosignatures.ts';
import { acceptCosignature } from './cosignatures.ts';
import { logQueriesOf, startLogCommand } from './events.ts';
import { secretBoxFor } from '../api-keys/sealed-secrets.ts';
import type { LogKeyRef } from './log-key.ts';
import { openLogKey } from './log-key.ts';

export interface Transparency {
  readonly origin: string;
  /** The log key, once the log has one (created when the log starts); undefined before. */
  key(): Ed25519Key | undefined;
  /** The log's verifier key text: <origin>+<key id>+<base64(0x01 || public key)>; undefined before a key. */
  verifierKey(): string | undefined;
  readonly reads: LogReads;
  /** The witnesses LOG_WITNESSES lists, in its order. */
  readonly witnesses: readonly VerifierKey[];
  acceptCosignature(note: string): Promise<CosignatureResult>;
}

declare module 'fastify' {
  interface FastifyInstance {
    transparency: Transparency;
  }
}

export interface TransparencyPluginOptions {
  /** Where app.ts keeps the key it read at start (the projector signs with the same one). */
  key: LogKeyRef;
  /** Submit `startLog` at start when the engine's log is not started (main.ts's live exchange). */
  start: boolean;
}

async function transparency(app: FastifyInstance, options: TransparencyPluginOptions): Promise<void> {
  const { logOrigin, logCheckpointIntervalMs, logWitnesses } = app.config;
  const reads = new LogReads(app.store);
  const witnesses = logWitnesses.map((text) => {
    const key = parseVerifierKey(text);
    if (key === undefined) throw new Error(`LOG_WITNESSES holds a key that is not a verifier key: ${text}`);
    return key;
  });
  app.decorate('transparency', {
    origin: logOrigin,
    key: () => options.key.current,
    verifierKey: () => {
      const key = options.key.current;
      return key === undefined ? undefined : verifierKey(logOrigin, LOG_KEY_TYPE, key.publicKey);
    },
    reads,
    witnesses,
    acceptCosignature: (note: string) => acceptCosignature(app.store, reads, witnesses, note),
  });
  if (!options.start) return;
  app.addHook('onReady', async () => {
    // The first start creates the key (sealed with the data folder's box), before the log can checkpoint.
    options.key.current ??= await openLogKey(app.store, await secretBoxFor(app.config.dataDir));
    const log = logQueriesOf(app.engine);
    if (log === undefined) {
      app.log.warn('the engine has no log area: the transparency log is not started');
      return;
    }
    const status = log.status();
    if (status.started) {
      if (status.origin !== logOrigin)
        app.log.warn(
          { started: status.origin, configured: logOrigin },
          'LOG_ORIGIN differs from the origin the log was started with, which never changes: the started one stays',
        );
      return;
    }
    const outcome = await app.runner.submit(startLogCommand(logOrigin, logCheckpointIntervalMs));
    if (outcome.code !== 0) throw new Error(`the engine refused to start the log (code ${outcome.code})`);
    app.log.info({ origin: logOrigin }, 'transparency log started');
  });
}

export const transparencyPlugin = fp(transparency, { name: 'fairex-transparency' });
