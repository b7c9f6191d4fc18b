// Who may call a back-office route, decided before the input is even read (so that a caller without the
// right learns nothing about a route's inputs):
//
//   no administrator session (no token, a user's token, an expired or revoked one)  -> {type: '999'}
//   an administrator session that has not passed the second factor                  -> {type: 'error',
//        message, second_factor: 'required' | 'enrol'}   (the console then asks for the code)
//   an administrator whose role lacks the route's permission                         -> {type: 'error'}
//
// The session routes (state, enrolment, the code itself, logout) need only the administrator session.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AuthAdmin } from '../../../admin/sessions.ts';
import type { Actor } from '../../../admin/audit-changes.ts';
import type { BackofficePermission } from '../../../admin/permissions.ts';
import { may } from '../../../admin/permissions.ts';
import { secondFactorState } from '../../../admin/second-factor.ts';
import type { RouteContext, RouteDefinition } from '../../../http/route.ts';
import { route } from '../../../http/route.ts';

/** 'session': an administrator session is enough; otherwise the second factor and this permission. */
export type RouteAccess = 'session' | BackofficePermission;

export interface AdminContext<I> extends RouteContext<I, null> {
  admin: AuthAdmin;
  actor: Actor;
}

export interface AdminRouteDefinition<S extends z.ZodType | undefined, R> extends Omit<
  RouteDefinition<S, 'none', R>,
  'handler' | 'auth'
> {
  access: RouteAccess;
  handler(context: AdminContext<S extends z.ZodType ? z.output<S> : Record<string, never>>): Promise<R> | R;
}

export type AdminRoute = <S extends z.ZodType | undefined = undefined, R = unknown>(
  definition: AdminRouteDefinition<S, R>,
) => void;

/** The full paths (with /api) of every back-office route and what each needs; tests walk this list. */
export const BACKOFFICE_ROUTES = new Map<string, { methods: string[]; access: RouteAccess }>();

/** A request's administrator, or the answer that refuses it (sent as it is, before the input is read). */
export type Admission = { admin: AuthAdmin } | { refusal: Record<string, unknown> };

/**
 * The one administrator check, shared by the back office and the older administrator areas (/api/admin and
 * /api/admin/wallet): 999 without a live administrator session; with `secondFactor`, the refusal above for a
 * session that has not passed the second factor.
 */
export async function admitAdministrator(
  app: FastifyInstance,
  request: FastifyRequest,
  options: { secondFactor: boolean },
): Promise<Admission> {
  const admin = await app.accounts.admins.authenticate(request.headers.authorization);
  if (!admin) return { refusal: { type: '999', message: request.t('admin.login_required') } };
  if (options.secondFactor) {
    const state = await secondFactorState(app.store, admin.id, admin.tokenHash);
    if (state !== 'verified') {
      return {
        refusal: {
          type: 'error',
          message: request.t('backoffice.second_factor_required'),
          second_factor: state,
        },
      };
    }
  }
  // The back office reads every user's projection rows: it sees everything acknowledged before it asked.
  if (app.hasDecorator('awaitAcknowledged')) await app.awaitAcknowledged();
  return { admin };
}

/**
 * Installs the guard on the back-office plugin and returns the function its routes are declared with. The
 * guard runs as a preHandler of this plugin only, so no other area is affected.
 */
export function backofficeGuard(app: FastifyInstance): AdminRoute {
  const access = new Map<string, RouteAccess>();
  const admins = new WeakMap<FastifyRequest, AuthAdmin>();

  app.addHook('preHandler', async (request, reply) => {
    const url = request.routeOptions.url ?? '';
    const needed = access.get(url);
    if (needed === undefined) return;
    const admitted = await admitAdministrator(app, request, { secondFactor: needed !== 'session' });
    if ('refusal' in admitted) return reply.send(admitted.refusal);
    const { admin } = admitted;
    if (needed !== 'session' && !may(admin.role, needed))
      return reply.send({ type: 'error', message: request.t('admin.forbidden') });
    admins.set(request, admin);
    return undefined;
  });

  return (definition) => {
    const url = `/api${definition.url}`;
    access.set(url, definition.access);
    const methods = Array.isArray(definition.method) ? definition.method : [definition.method];
    BACKOFFICE_ROUTES.set(url, { methods: methods.map(String), access: definition.access });
    const { handler, access: _access, ...rest } = definition;
    route(app, {
      ...rest,
      handler: async (context) => {
        const admin = admins.get(context.request);
        // The guard ran for this very route; a missing administrator is a wiring fault, not a refusal.
        if (admin === undefined) throw new Error(`the back-office guard did not run for ${url}`);
        return handler({
          ...context,
          user: null,
          admin,
          actor: { adminId: admin.id, ip: context.request.ip },
        });
      },
    } as RouteDefinition<never, 'none', unknown>);
  };
}
