// The proof-of-liabilities area's Fastify plugin (docs/transparency.md, "Proof of liabilities"): decorates
// the app with `app.liabilities` (the latest published snapshot, a user's own proof, capture and publish),
// which the routes (routes/api/liabilities/), the back office and the scheduler's daily job use; and at start
// publishes a capture a crash left pending. Its projection is registered with the runner (exchange-runner.ts).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { LiabilitiesLatestReply, LiabilitiesProofReply } from '@fairex/shared';
import { secretBoxFor } from '../api-keys/sealed-secrets.ts';
import { LiabilitiesPublisher } from './publisher.ts';
import { latestLiabilities, liabilitiesProof, liabilitiesSecret } from './service.ts';

export interface LiabilitiesArea {
  latest(): Promise<LiabilitiesLatestReply | null>;
  /** The user's own proof: `userId` is the signed-in user's. */
  proof(userId: number, snapshotId: string): Promise<LiabilitiesProofReply | null>;
  readonly publisher: LiabilitiesPublisher;
}

declare module 'fastify' {
  interface FastifyInstance {
    liabilities: LiabilitiesArea;
  }
}

/** The engine's log status as log-design.md gives it (the engine's `log` area). */
interface LogStatus {
  pendingLiabilities: { snapshotId: string; seq: number } | null;
}

async function liabilitiesPlugin(app: FastifyInstance): Promise<void> {
  let secret: Promise<Buffer> | undefined;
  const publisher = new LiabilitiesPublisher({
    store: app.store,
    secret: () => {
      secret ??= secretBoxFor(app.config.dataDir).then((box) => liabilitiesSecret(app.store, box));
      secret.catch(() => (secret = undefined));
      return secret;
    },
    runner: {
      submit: (command, options) => app.runner.submit(command, options),
      whenProjected: (seq) => app.runner.whenProjected(seq),
      pending: () => {
        const log = (app.engine as unknown as { log?: { status(): LogStatus } }).log;
        return log === undefined ? null : log.status().pendingLiabilities;
      },
    },
    logger: app.log,
  });
  app.decorate('liabilities', {
    latest: () => latestLiabilities(app.store),
    proof: (userId: number, snapshotId: string) => liabilitiesProof(app.store, userId, snapshotId),
    publisher,
  });
  app.addHook('onReady', async () => {
    // In the background: a million users take tens of seconds, and the server answers meanwhile.
    publisher
      .recover()
      .catch((error: unknown) =>
        app.log.error({ err: error }, 'the pending liabilities snapshot was not published'),
      );
  });
  app.addHook('preClose', async () => {
    await publisher.idle();
  });
}

export const liabilitiesAreaPlugin = fp(liabilitiesPlugin, {
  name: 'liabilities',
  dependencies: ['engine-runner'],
});
