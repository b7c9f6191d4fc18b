// The one way /api routes are declared: input from the query and the body merged and validated by a zod
// schema, optional or required login, and a handler that returns the reply envelope.
//
// Status codes: answers the API gives (ok, a refused input, 999, 998) are HTTP 200 with `type` saying what
// happened, as the web client of the specifications expects; only transport-level failures (malformed
// JSON, wrong content type, oversize body, unknown path) use 4xx, and only internal faults 500.
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { z } from 'zod';
import type { Language, MessageKey, MessageParams } from '@fairex/shared';
import { apiError, fieldName, issueMessage, notLoggedIn, realNameRequired, translate } from '@fairex/shared';
import type { AuthUser } from '../auth/sessions.ts';

/**
 * none: no login needed; optional: `user` when a valid token came; required: 999 without a valid token;
 * verified: like required, and 998 unless real-name verification is approved.
 */
export type AuthMode = 'none' | 'optional' | 'required' | 'verified';

export type UserFor<A extends AuthMode> = A extends 'required' | 'verified' ? AuthUser : AuthUser | null;
export type InputOf<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

export interface RouteContext<I, U> {
  input: I;
  user: U;
  lang: Language;
  request: FastifyRequest;
  reply: FastifyReply;
  /** Translates a catalogue message into the request language. */
  t(key: MessageKey, params?: MessageParams): string;
}

export interface RouteDefinition<S extends z.ZodType | undefined, A extends AuthMode, R> {
  method: HTTPMethods | HTTPMethods[];
  /** The path below /api, as the specifications write it (e.g. "/user/login"). */
  url: string;
  auth?: A;
  input?: S;
  /** Overrides the app's body limit for this route. */
  bodyLimit?: number;
  /**
   * Read-your-writes (engine-runner/read-your-writes.ts): a signed-in request first waits until the
   * projections hold its user's last acknowledged write. False for a route whose handler reads no projection
   * table, its checks and its reply coming from the live engine (placing a spot order): the wait would only
   * delay it. Default true.
   */
  awaitsOwnWrites?: boolean;
  handler(context: RouteContext<InputOf<S>, UserFor<A>>): Promise<R> | R;
}

/** A user's review_status once the real name is approved: what an `auth: 'verified'` route requires. */
export const REAL_NAME_APPROVED = 2;

export function route<S extends z.ZodType | undefined = undefined, A extends AuthMode = 'none', R = unknown>(
  app: FastifyInstance,
  definition: RouteDefinition<S, A, R>,
): void {
  const auth: AuthMode = definition.auth ?? 'none';
  const authOptions = { awaitOwnWrites: definition.awaitsOwnWrites ?? true };
  app.route({
    method: definition.method,
    url: definition.url,
    ...(definition.bodyLimit === undefined ? {} : { bodyLimit: definition.bodyLimit }),
    handler: async (request, reply) => {
      const t = (key: MessageKey, params?: MessageParams) => translate(request.lang, key, params);
      let user: AuthUser | null = null;
      if (auth !== 'none') {
        user = await request.server.authenticateRequest(request, authOptions);
        if (!user && auth !== 'optional') return notLoggedIn(t('auth.login_required'));
        if (user && auth === 'verified' && user.reviewStatus !== REAL_NAME_APPROVED) {
          return realNameRequired(t('auth.real_name_required'));
        }
      }
      const raw = mergeInput(request.query, request.body);
      // PostgreSQL text cannot hold U+0000 nor a lone surrogate, so no input may carry one into a statement.
      const badField = raw === undefined ? undefined : fieldWithUnstorableText(raw);
      if (badField !== undefined) {
        return apiError(t('validation.nul_character', { field: fieldName(request.lang, badField) }));
      }
      let input: unknown = {};
      if (definition.input) {
        const parsed = definition.input.safeParse(raw);
        if (!parsed.success) return apiError(describeFirstIssue(request.lang, parsed.error));
        input = parsed.data;
      } else if (raw === undefined) {
        return apiError(t('validation.body'));
      }
      return definition.handler({
        input: input as InputOf<S>,
        user: user as UserFor<A>,
        lang: request.lang,
        request,
        reply,
        t,
      });
    },
  });
}

/**
 * Query and body as one object; the body wins on a name in both. Undefined when the body is not an
 * object (a JSON array, string or null), which no route accepts.
 */
function mergeInput(query: unknown, body: unknown): Record<string, unknown> | undefined {
  if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body)))
    return undefined;
  return {
    ...(query as Record<string, unknown> | undefined),
    ...(body as Record<string, unknown> | undefined),
  };
}

/**
 * Whether text can be stored as it is: no NUL character (PostgreSQL text cannot hold U+0000) and well-formed
 * UTF-16 (a lone surrogate has no UTF-8 form: a text column would get U+FFFD in its place, and a JSON
 * column refuses it).
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}

/**
 * The name of the first top-level field whose name or value holds text that cannot be stored (see
 * isStorableText) anywhere inside it, cleaned so that a message can show it. Routes declared with `route`
 * refuse such input before validation; the two hand-written routes (the chart's bars and the custody
 * callback) call this themselves.
 */
export function fieldWithUnstorableText(input: Record<string, unknown>): string | undefined {
  const unstorable = (value: unknown, depth: number): boolean => {
    if (typeof value === 'string') return !isStorableText(value);
    if (typeof value !== 'object' || value === null || depth > 32) return false;
    return Object.entries(value).some(([key, inner]) => !isStorableText(key) || unstorable(inner, depth + 1));
  };
  for (const [key, value] of Object.entries(input)) {
    if (!isStorableText(key) || unstorable(value, 0)) return key.replaceAll('\u0000', '').toWellFormed();
  }
  return undefined;
}

function describeFirstIssue(lang: Language, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return translate(lang, 'validation.body');
  const message = issueMessage(issue);
  return translate(lang, message.key, { ...message.params, field: fieldName(lang, message.field) });
}
