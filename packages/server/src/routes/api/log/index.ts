// The transparency log (docs/transparency.md), public, no login:
// - GET  /log/key          the log's verifier key and raw public key;
// - GET  /log/checkpoint   the latest signed checkpoint with the collected witnesses' cosignature lines;
// - GET  /log/consistency  a consistency proof between two tree sizes (up to the latest checkpoint's);
// - GET  /log/inclusion    an inclusion proof of an entry in the tree of a size;
// - GET  /log/entries      entries [start, end), at most 1,000;
// - GET  /log/sample       the entry holding a market's price sample;
// - GET  /log/liabilities/latest  the newest liabilities entry (sum-tree root, totals, ledger identity);
// - POST /log/cosignature  a witness's cosignature of a published checkpoint (LOG_WITNESSES only).
import type { FastifyInstance } from 'fastify';
import {
  LOG_ENTRIES_PER_CALL,
  logConsistencyInput,
  logCosignatureInput,
  logEntriesInput,
  logInclusionInput,
  logSampleInput,
  ok,
} from '@fairex/shared';
import type {
  LogCheckpointMessage,
  LogConsistencyMessage,
  LogCosignatureMessage,
  LogEntriesMessage,
  LogInclusionMessage,
  LogKeyMessage,
  LogSampleMessage,
} from '@fairex/shared';
import { AppError } from '../../../http/app-error.ts';
import { route } from '../../../http/route.ts';
import { LogReadError } from '../../../transparency/proofs.ts';

/** A read's refusal as a translated error. */
async function translated<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof LogReadError) throw new AppError(error.key);
    throw error;
  }
}

export default async function logRoutes(app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('transparency')) return;
  const log = app.transparency;

  route(app, {
    method: 'GET',
    url: '/log/key',
    auth: 'optional',
    handler: async () => {
      const key = log.key();
      const verifier = log.verifierKey();
      if (key === undefined || verifier === undefined) throw new AppError('log.not_started');
      const message: LogKeyMessage = {
        origin: log.origin,
        key: verifier,
        public_key: key.publicKey.toString('base64'),
      };
      return ok(message);
    },
  });

  route(app, {
    method: 'GET',
    url: '/log/checkpoint',
    auth: 'optional',
    handler: async () => {
      const latest = await log.reads.latestWithCosignatures(log.witnesses.map((witness) => witness.text));
      if (latest === undefined) throw new AppError('log.no_checkpoint');
      const message: LogCheckpointMessage = {
        note: latest.note,
        size: latest.checkpoint.size,
        root: latest.checkpoint.root,
        time: latest.checkpoint.timeMs,
      };
      return ok(message);
    },
  });

  route(app, {
    method: 'GET',
    url: '/log/consistency',
    auth: 'optional',
    input: logConsistencyInput,
    handler: async ({ input }) => {
      const proof = await translated(() => log.reads.consistency(input.from, input.to));
      const message: LogConsistencyMessage = { from: input.from, to: input.to, proof };
      return ok(message);
    },
  });

  route(app, {
    method: 'GET',
    url: '/log/inclusion',
    auth: 'optional',
    input: logInclusionInput,
    handler: async ({ input }) => {
      const { leafHash, proof } = await translated(() => log.reads.inclusion(input.index, input.size));
      const message: LogInclusionMessage = {
        index: input.index,
        size: input.size,
        leaf_hash: leafHash,
        proof,
      };
      return ok(message);
    },
  });

  route(app, {
    method: 'GET',
    url: '/log/entries',
    auth: 'optional',
    input: logEntriesInput,
    handler: async ({ input }) => {
      if (input.end - input.start > LOG_ENTRIES_PER_CALL)
        throw new AppError('log.too_many_entries', { max: LOG_ENTRIES_PER_CALL });
      const entries = await translated(() => log.reads.entries(input.start, input.end));
      const message: LogEntriesMessage = { entries };
      return ok(message);
    },
  });

  route(app, {
    method: 'GET',
    url: '/log/sample',
    auth: 'optional',
    input: logSampleInput,
    handler: async ({ input }) => {
      if (!app.hasDecorator('marketData')) throw new AppError('market.unknown_market');
      const market = await app.marketData.catalog.bySymbol(input.symbol);
      if (market === undefined) throw new AppError('market.unknown_market');
      const leaf = await log.reads.sampleLeaf(market.marketId, market.symbol, input.seq);
      if (leaf === undefined) throw new AppError('log.sample_not_logged');
      const message: LogSampleMessage = leaf;
      return ok(message);
    },
  });

  route(app, {
    method: 'POST',
    url: '/log/cosignature',
    auth: 'optional',
    input: logCosignatureInput,
    handler: async ({ input }) => {
      const result = await log.acceptCosignature(input.note);
      if (result.kind === 'refused') throw new AppError('log.cosignature_refused');
      const message: LogCosignatureMessage = { size: result.size, witness: result.witness };
      return ok(message);
    },
  });
}
