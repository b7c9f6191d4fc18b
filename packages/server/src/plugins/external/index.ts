// Third-party plugins, registered first so that everything after them can rely on them.
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

async function externalPlugins(app: FastifyInstance): Promise<void> {
  // The template's client posts form-encoded bodies; JSON is built in.
  await app.register(formbody);
  // Plain text is no body any route accepts: refuse it as an unsupported media type up front.
  app.removeContentTypeParser('text/plain');
}

export default fp(externalPlugins, { name: 'external-plugins' });
