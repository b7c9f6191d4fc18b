// Verification codes: six random digits, stored as a salted SHA-256, valid ten minutes, used once, at most
// five wrong tries, one new code per destination and purpose every 60 seconds, and send limits per
// destination, per account and per client address. There is no universal code.
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Language } from '@fairex/shared';
import { AppError } from '../http/app-error.ts';
import type { Messenger } from '../mail/messenger.ts';
import { MessageDeliveryError } from '../mail/messenger.ts';
import type { CodePurpose } from '../mail/templates.ts';
import { codeEmail, codeSms } from '../mail/templates.ts';
import type { Queryable } from '../store/index.ts';
import type { Limit, Throttle } from './throttle.ts';
import { minutesToWait } from './throttle.ts';

export type { CodePurpose };
export type CodeChannel = 'email' | 'sms';

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_RESEND_MS = 60_000;
/** Wrong codes one client address may enter per hour, over all destinations. */
export const WRONG_CODES_PER_IP_PER_HOUR = 60;

const HOUR_MS = 3_600_000;
const CODE_PATTERN = /^\d{6}$/;

export interface CodeLimits {
  sendsPerHour: number;
  sendsPerIpPerHour: number;
}

export interface SendCodeInput {
  purpose: CodePurpose;
  channel: CodeChannel;
  /** Lower-case e-mail, or +<calling code><national number>. */
  destination: string;
  userId: number | null;
  ip: string;
  lang: Language;
  /** SHA-256 (hex) of the token the sending request gives its client, for checks that send the code alone. */
  clientHash?: string;
}

export interface CheckCodeInput {
  purpose: CodePurpose;
  destination: string;
  code: string;
  ip: string;
  /** For binding codes: only a code this user asked for counts. */
  userId?: number;
}

/** The code alone, from the client a code was sent to (the hash of the token it was given then). */
export interface CheckClientCodeInput {
  clientHash: string;
  channel: CodeChannel;
  code: string;
  ip: string;
}

interface CodeRow {
  id: number;
  code_hash: string;
  salt: string;
  attempts: number;
  expired: boolean;
  consumed: boolean;
}

const SELECT_CODE = `select id, code_hash, salt, attempts, expires_at <= now() as expired,
                            consumed_at is not null as consumed
                       from verification_codes`;

function hashCode(salt: string, code: string): string {
  return createHash('sha256').update(`${salt}:${code}`).digest('hex');
}

export class VerificationCodes {
  readonly #db: Queryable;
  readonly #throttle: Throttle;
  readonly #messenger: Messenger;
  readonly #limits: CodeLimits;

  constructor(options: { db: Queryable; throttle: Throttle; messenger: Messenger; limits: CodeLimits }) {
    this.#db = options.db;
    this.#throttle = options.throttle;
    this.#messenger = options.messenger;
    this.#limits = options.limits;
  }

  /** Creates a code, sends it, and makes every earlier code for the same destination and purpose void. */
  async send(input: SendCodeInput): Promise<void> {
    await this.#checkSendLimits(input);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const salt = randomBytes(16).toString('hex');
    const { rows } = await this.#db.query<{ id: number }>(
      `with voided as (
         update verification_codes set expires_at = least(expires_at, now())
          where destination = $1 and purpose = $2 and consumed_at is null and expires_at > now()
       )
       insert into verification_codes (purpose, channel, destination, user_id, code_hash, salt, request_ip, expires_at,
                                       client_hash)
       values ($2, $3, $1, $4, $5, $6, $7, now() + make_interval(secs => $8), $9) returning id`,
      [
        input.destination,
        input.purpose,
        input.channel,
        input.userId,
        hashCode(salt, code),
        salt,
        input.ip,
        CODE_TTL_MS / 1000,
        input.clientHash ?? null,
      ],
    );
    const message = { lang: input.lang, code, purpose: input.purpose, minutes: CODE_TTL_MS / 60_000 };
    try {
      if (input.channel === 'email') await this.#messenger.sendEmail(codeEmail(input.destination, message));
      else await this.#messenger.sendSms(codeSms(input.destination, message));
    } catch (error) {
      // A code nobody received must not block the next attempt for a minute.
      await this.#db.query('delete from verification_codes where id = $1', [rows[0]?.id]);
      if (error instanceof MessageDeliveryError) throw new AppError('code.send_failed');
      throw error;
    }
    await Promise.all([
      this.#throttle.record('code.send.destination', input.destination),
      this.#throttle.record('code.send.ip', input.ip),
      input.userId === null ? undefined : this.#throttle.record('code.send.user', String(input.userId)),
    ]);
  }

  /**
   * Checks a code without using it up (the spec's check_email / check_mobile, and the first half of every
   * action that needs a code). A wrong code counts against the code and the client address. Returns the
   * code's id for `consume`.
   */
  async check(input: CheckCodeInput): Promise<number> {
    return this.#verify(input, () =>
      this.#db.query<CodeRow>(
        `${SELECT_CODE} where destination = $1 and purpose = $2 and ($3::int is null or user_id = $3)
          order by created_at desc, id desc limit 1`,
        [input.destination, input.purpose, input.userId ?? null],
      ),
    );
  }

  /**
   * The template's check_email / check_mobile: the code alone, matched against the latest code sent by
   * `channel` to the client that holds the token. Like `check`, it does not use the code up.
   */
  async checkForClient(input: CheckClientCodeInput): Promise<number> {
    return this.#verify(input, () =>
      this.#db.query<CodeRow>(
        `${SELECT_CODE} where client_hash = $1 and channel = $2 order by created_at desc, id desc limit 1`,
        [input.clientHash, input.channel],
      ),
    );
  }

  async #verify(
    input: { code: string; ip: string },
    find: () => Promise<{ rows: CodeRow[] }>,
  ): Promise<number> {
    const wrongCodes = { scope: 'code.wrong.ip', max: WRONG_CODES_PER_IP_PER_HOUR, windowMs: HOUR_MS };
    await this.#refuseWhen(wrongCodes, input.ip, 'account.too_many_failures');
    const { rows } = await find();
    const row = rows[0];
    if (!row) throw new AppError('code.not_sent');
    if (row.consumed) throw new AppError('code.used');
    if (row.expired) throw new AppError('code.expired');
    if (row.attempts >= CODE_MAX_ATTEMPTS) throw new AppError('code.too_many_attempts');
    const expected = Buffer.from(row.code_hash, 'hex');
    const actual = Buffer.from(hashCode(row.salt, input.code), 'hex');
    if (!CODE_PATTERN.test(input.code) || !timingSafeEqual(expected, actual)) {
      const { rows: updated } = await this.#db.query<{ attempts: number }>(
        'update verification_codes set attempts = attempts + 1 where id = $1 returning attempts',
        [row.id],
      );
      await this.#throttle.record('code.wrong.ip', input.ip);
      const left = CODE_MAX_ATTEMPTS - (updated[0]?.attempts ?? CODE_MAX_ATTEMPTS);
      if (left <= 0) throw new AppError('code.too_many_attempts');
      throw new AppError('code.wrong', { left });
    }
    return row.id;
  }

  /**
   * Uses a checked code up, inside the transaction of the action it authorises: if the action fails the
   * code stays usable; if two requests race, one of them wins.
   */
  async consume(db: Queryable, codeId: number): Promise<void> {
    const { rowCount } = await db.query(
      `update verification_codes set consumed_at = now()
        where id = $1 and consumed_at is null and expires_at > now()`,
      [codeId],
    );
    if (rowCount !== 1) throw new AppError('code.used');
  }

  async #checkSendLimits(input: SendCodeInput): Promise<void> {
    const { rows } = await this.#db.query<{ waited_ms: number }>(
      `select (extract(epoch from (now() - created_at)) * 1000)::int as waited_ms
         from verification_codes where destination = $1 and purpose = $2
        order by created_at desc limit 1`,
      [input.destination, input.purpose],
    );
    const waitedMs = rows[0]?.waited_ms;
    if (waitedMs !== undefined && waitedMs < CODE_RESEND_MS) {
      throw new AppError('code.resend_wait', { seconds: Math.ceil((CODE_RESEND_MS - waitedMs) / 1000) });
    }
    const perHour = (scope: string, max: number): Limit => ({ scope, max, windowMs: HOUR_MS });
    await this.#refuseWhen(perHour('code.send.destination', this.#limits.sendsPerHour), input.destination);
    await this.#refuseWhen(perHour('code.send.ip', this.#limits.sendsPerIpPerHour), input.ip);
    if (input.userId !== null) {
      await this.#refuseWhen(perHour('code.send.user', this.#limits.sendsPerHour), String(input.userId));
    }
  }

  async #refuseWhen(
    limit: Limit,
    subject: string,
    key: 'code.too_many_requests' | 'account.too_many_failures' = 'code.too_many_requests',
  ): Promise<void> {
    const state = await this.#throttle.state(limit, subject);
    if (state.blocked) throw new AppError(key, { minutes: minutesToWait(state.retryAfterMs) });
  }
}
