// Third-party plugins, registered first so that everything after them can rely on them.
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface ExternalPluginOptions {
  /** Web origins allowed to call the API from a browser (CORS_ORIGINS); empty: same origin only. */
  corsOrigins?: readonly string[];
}

/** The request headers a browser front end may send across origins. */
export const CORS_ALLOWED_HEADERS = ['authorization', 'lang', 'content-type', 'idempotency-key'];
/** How long a browser may reuse a preflight answer. */
const CORS_MAX_AGE_S = 600;

async function externalPlugins(app: FastifyInstance, options: ExternalPluginOptions): Promise<void> {
  const origins = new Set(options.corsOrigins ?? []);
  if (origins.size > 0) {
    // Only listed origins get CORS headers (and so only their pages may read answers); without a list
    // nothing is added and browsers keep to the same origin. Tokens travel in a header, never in cookies;
    // credentials are allowed so that a listed origin's client can send the code-check cookie that
    // `sms_mail` / `sms_send` set (docs/template-clients.md).
    await app.register(cors, {
      origin: (origin, callback) => callback(null, origin !== undefined && origins.has(origin)),
      methods: ['GET', 'POST'],
      allowedHeaders: CORS_ALLOWED_HEADERS,
      credentials: true,
      maxAge: CORS_MAX_AGE_S,
    });
  }
  // The template's client posts form-encoded bodies; JSON is built in.
  await app.register(formbody);
  // Plain text is no body any route accepts: refuse it as an unsupported media type up front.
  app.removeContentTypeParser('text/plain');
}

export default fp(externalPlugins, { name: 'external-plugins' });
