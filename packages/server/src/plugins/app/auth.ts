// Authentication: request.user from the Authorization header (raw token or "Bearer <token>"), checked
// against live sessions. `requireUser` is a preHandler answering {type: '999'} without a valid token.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { notLoggedIn } from '@fairex/shared';
import type { AuthUser } from '../../auth/sessions.ts';
import { SessionAuthenticator, tokenFromHeader } from '../../auth/sessions.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionAuthenticator;
    /**
     * Resolves (once per request) and sets request.user; null without a valid token. Then, unless
     * `awaitOwnWrites` is false, waits for the user's last acknowledged write to be projected
     * (readYourWrites).
     */
    authenticateRequest(
      request: FastifyRequest,
      options?: { awaitOwnWrites?: boolean },
    ): Promise<AuthUser | null>;
    /** preHandler for hand-written routes: 999 unless logged in. */
    requireUser(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
    /** Set by the API key plugin (api-keys/plugin.ts): resolves a request signed with an API key. */
    apiKeyAuthentication: { authenticate: ((request: FastifyRequest) => Promise<AuthUser>) | null };
    /**
     * Set by the engine runner plugin (engine-runner/read-your-writes.ts): once a request's user is known,
     * waits until the projections hold that user's last acknowledged write (or refuses).
     */
    readYourWrites: { wait: ((user: AuthUser) => Promise<void>) | null };
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

export interface AuthPluginOptions {
  /**
   * How long a token's answer may be reused without news from the store (default 2000 ms; 0 disables): the
   * bound on how late a revocation made by another process is seen.
   */
  sessionCacheMs?: number;
}

async function authPlugin(app: FastifyInstance, options: AuthPluginOptions): Promise<void> {
  const sessions = new SessionAuthenticator(app.store, { cacheMs: options.sessionCacheMs });
  // Cached answers stay confirmed by one poll of the session changes a second (auth/sessions.ts).
  const stopWatching = sessions.watchChanges();
  app.addHook('onClose', async () => stopWatching());
  const resolved = new WeakSet<FastifyRequest>();
  app.decorate('sessions', sessions);
  app.decorateRequest('user', null);
  const apiKeyAuthentication: FastifyInstance['apiKeyAuthentication'] = { authenticate: null };
  app.decorate('apiKeyAuthentication', apiKeyAuthentication);
  const readYourWrites: FastifyInstance['readYourWrites'] = { wait: null };
  app.decorate('readYourWrites', readYourWrites);
  app.decorate(
    'authenticateRequest',
    async (request: FastifyRequest, options: { awaitOwnWrites?: boolean } = {}) => {
      if (!resolved.has(request)) {
        // A request carrying an API key is that key's alone (signed, scoped; it may throw a refusal).
        const byKey = apiKeyAuthentication.authenticate;
        request.user =
          byKey !== null && request.headers['x-fx-key'] !== undefined
            ? await byKey(request)
            : await sessions.authenticate(tokenFromHeader(request.headers.authorization));
        resolved.add(request);
      }
      const user = request.user;
      // Free when the user's writes are projected: a second call in one request costs a map lookup.
      if (user && options.awaitOwnWrites !== false && readYourWrites.wait !== null) {
        await readYourWrites.wait(user);
      }
      return user;
    },
  );
  app.decorate('requireUser', async (request: FastifyRequest, reply: FastifyReply) => {
    const user = await app.authenticateRequest(request);
    // Sending from an async preHandler and returning the reply ends the request here.
    if (!user) return reply.send(notLoggedIn(request.t('auth.login_required')));
    return undefined;
  });
}

export default fp(authPlugin, { name: 'auth', dependencies: ['store', 'i18n'] });
