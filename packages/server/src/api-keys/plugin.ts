// The API keys area as a Fastify plugin: the service (app.apiKeys), the raw body of signed requests kept for
// the signature check, and the authenticator the auth plugin consults when a request carries X-FX-KEY.
// Registered by app.ts with the other area plugins, before the routes, so its hook applies to every call;
// its routes (routes/api/api-keys/index.ts) only use app.apiKeys.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiKeys } from './keys.ts';
import { secretBoxFor } from './sealed-secrets.ts';
import { HEADER_KEY } from './signature.ts';

declare module 'fastify' {
  interface FastifyInstance {
    apiKeys: ApiKeys;
  }
}

const rawBodies = new WeakMap<FastifyRequest, string>();

async function apiKeysPlugin(app: FastifyInstance): Promise<void> {
  const keys = new ApiKeys(app.store, () => secretBoxFor(app.config.dataDir));
  app.decorate('apiKeys', keys);
  // The signature covers the body exactly as sent, so a signed request's bytes are kept before parsing.
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (request.headers[HEADER_KEY] === undefined) return payload;
    const chunks: Buffer[] = [];
    for await (const chunk of payload)
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    const raw = Buffer.concat(chunks);
    rawBodies.set(request, raw.toString('utf8'));
    const replay = Readable.from([raw]) as Readable & { receivedEncodedLength?: number };
    replay.receivedEncodedLength = raw.length;
    return replay;
  });
  app.apiKeyAuthentication.authenticate = (request) =>
    keys.authenticate(request, rawBodies.get(request) ?? '');
}

export const apiKeysAreaPlugin = fp(apiKeysPlugin, { name: 'api-keys', dependencies: ['auth', 'store'] });
