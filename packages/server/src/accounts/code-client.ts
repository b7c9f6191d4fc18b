// The short-lived cookie that ties a code check to the request that sent the code. The template's clients
// check a code by sending the code alone (`email_code` / `mobile_code`); its server kept the code in a
// session. Here the sending request gives its client a random token in an HttpOnly cookie, one per channel,
// valid as long as the code, and stores the token's SHA-256 with the code: the check finds the code
// through that cookie and nothing else.
import { createHash, randomBytes } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CodeChannel } from './codes.ts';
import { CODE_TTL_MS } from './codes.ts';

const COOKIE_NAMES: Record<CodeChannel, string> = { email: 'fairex_email_code', sms: 'fairex_mobile_code' };
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A fresh token for a code about to be sent, and the hash stored with the code. */
export function newCodeClient(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/** Hands the token to the client once the code is sent. */
export function setCodeCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  channel: CodeChannel,
  token: string,
): void {
  reply.header(
    'set-cookie',
    stringifySetCookie({
      name: COOKIE_NAMES[channel],
      value: token,
      path: '/api/user',
      maxAge: CODE_TTL_MS / 1000,
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
    }),
  );
}

/** The stored hash of the token the request's cookie carries for `channel`, if it carries a well-formed one. */
export function codeClientHash(request: FastifyRequest, channel: CodeChannel): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  const token = parseCookie(header)[COOKIE_NAMES[channel]];
  return token !== undefined && TOKEN_PATTERN.test(token) ? hashToken(token) : undefined;
}
