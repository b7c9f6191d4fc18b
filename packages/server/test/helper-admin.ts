// Administrators in tests pass the second factor the way the console does: a password session, then
// POST /api/backoffice/second_factor/enrol and confirm (or verify, once enrolled) with a code computed here
// as an authenticator app would.
import { Secret, TOTP } from 'otpauth';
import type { FastifyInstance } from 'fastify';
import { createAdmin } from '../src/admin/admins.ts';
import type { AdminRole } from '../src/admin/sessions.ts';
import { AdminAuthenticator } from '../src/admin/sessions.ts';
import type { Store } from '../src/store/index.ts';

/** The code an authenticator app shows for `secret`, `offsetSteps` 30-second steps from now. */
export function authenticatorCode(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

async function post(
  app: FastifyInstance,
  url: string,
  token: string,
  payload: Record<string, unknown>,
): Promise<{ type: string; message: unknown }> {
  const response = await app.inject({
    method: 'POST',
    url: `/api${url}?lang=en`,
    headers: { authorization: token },
    payload,
  });
  return response.json() as { type: string; message: unknown };
}

/**
 * Passes the second factor for an administrator session. Without `secret` the administrator enrols (their
 * first sign-in) and the new secret is returned; with it, the session is verified with a current code. A code
 * is accepted once, so a second session within one 30-second step uses the next step's code (still accepted).
 */
export async function passSecondFactor(
  app: FastifyInstance,
  token: string,
  secret?: string,
): Promise<string> {
  if (secret !== undefined) {
    for (const offsetSteps of [0, 1]) {
      const reply = await post(app, '/backoffice/second_factor/verify', token, {
        code: authenticatorCode(secret, offsetSteps),
      });
      if (reply.type === 'ok') return secret;
    }
    throw new Error('the second factor was not accepted');
  }
  const enrolment = await post(app, '/backoffice/second_factor/enrol', token, {});
  if (enrolment.type !== 'ok') throw new Error(`enrolment refused: ${JSON.stringify(enrolment)}`);
  const { secret: newSecret } = enrolment.message as { secret: string };
  const confirmed = await post(app, '/backoffice/second_factor/confirm', token, {
    code: authenticatorCode(newSecret),
  });
  if (confirmed.type !== 'ok') throw new Error(`confirmation refused: ${JSON.stringify(confirmed)}`);
  return newSecret;
}

/**
 * A new administrator of `role` with a session that has passed the second factor (enrolled on the way), as
 * the console holds it after signing in. Returns the session token.
 */
export async function signedInAdmin(
  app: FastifyInstance,
  store: Store,
  input: { username: string; role: AdminRole; ip?: string | null },
): Promise<string> {
  const adminId = await createAdmin(store, {
    username: input.username,
    password: `${input.username}-password-1`,
    role: input.role,
    createdBy: null,
  });
  const { token } = await new AdminAuthenticator(store).create(adminId, input.ip ?? '127.0.0.1');
  await passSecondFactor(app, token);
  return token;
}
