// The login reply, declared once for the server that builds it and the clients that read it. The template's
// clients keep the envelope's `message` as the token; Fairex's web app reads `data` (the token and the
// user's info). A user with two-factor on gets a refusal naming the missing code, with `totp_required`, so
// that no client mistakes it for a session.
import type { ApiError, ApiOk } from '../envelope.ts';

/** What `user/info` answers and a login carries along. */
export interface UserInfo {
  id: number;
  account: string;
  extension_code: string;
  /** 1 when the user is a fiat merchant (the web client compares with 1). */
  is_seller: 0 | 1;
  phone: string | null;
  area_code: string | null;
  email: string | null;
  review_status: number;
  /** 1 when two-factor authentication (an authenticator app) is on. */
  google_bind: 0 | 1;
  created_at: string;
}

/** A successful login: the token as the message, and again with the user under `data`. */
export type LoginOk = ApiOk<string> & { data: { token: string; user: UserInfo } };

/** The password was right and the account needs its authenticator code too. */
export type LoginTotpRequired = ApiError & { totp_required: true };

export function loginOk(token: string, user: UserInfo): LoginOk {
  return { type: 'ok', message: token, data: { token, user } };
}

export function loginTotpRequired(message: string): LoginTotpRequired {
  return { type: 'error', message, totp_required: true };
}
