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
import type { Queryable, Store } from '../store/index.ts';
import { lockCounted } from '../store/counted-locks.ts';
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
  readonly #db: Pick<Store, 'query' | 'transaction'>;
  readonly #throttle: Throttle;
  readonly #messenger: Messenger;
  readonly #limits: CodeLimits;

  constructor(options: {
    db: Pick<Store, 'query' | 'transaction'>;
    throttle: Throttle;
    messenger: Messenger;
    limits: CodeLimits;
  }) {
    this.#db = options.db;
    this.#throttle = options.throttle;
    this.#messenger = options.messenger;
    this.#limits = options.limits;
  }

  /**
   * Creates a code, sends it, and makes every earlier code for the same destination and purpose void. The
   * send is reserved first: one transaction takes the locks of the destination, the client address and the
   * account, checks their limits, and records the code and the counted send; only then does the message
   * go out. Parallel sends therefore count each other, and a message goes out only for a reserved send. A
   * message that cannot be delivered gives its reservation back.
   */
  async send(input: SendCodeInput): Promise<void> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const salt = randomBytes(16).toString('hex');
    const reserved = await this.#db.transaction(async (tx) => {
      const owners: Array<[string, string]> = [
        ['code.send.destination', input.destination],
        ['code.send.ip', input.ip],
      ];
      if (input.userId !== null) owners.push(['code.send.user', String(input.userId)]);
      await lockCounted(tx, owners);
      const refusal = await this.#sendRefusal(tx, input);
      if (refusal !== null) return { refusal };
      const { rows } = await tx.query<{ id: number }>(
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
      const counted: number[] = [];
      for (const [scope, subject] of owners) counted.push(await this.#throttle.record(scope, subject, tx));
      return { codeId: rows[0]?.id as number, counted };
    });
    if ('refusal' in reserved) throw reserved.refusal;
    const message = { lang: input.lang, code, purpose: input.purpose, minutes: CODE_TTL_MS / 60_000 };
    try {
      if (input.channel === 'email') await this.#messenger.sendEmail(codeEmail(input.destination, message));
      else await this.#messenger.sendSms(codeSms(input.destination, message));
    } catch (error) {
      // A code nobody received must neither block the next attempt for a minute nor count as sent.
      await this.#db.transaction(async (tx) => {
        await tx.query('delete from verification_codes where id = $1', [reserved.codeId]);
        await tx.query('delete from auth_throttle where id = any($1::int[])', [reserved.counted]);
      });
      if (error instanceof MessageDeliveryError) throw new AppError('code.send_failed');
      throw error;
    }
  }

  /**
   * Checks a code without using it up (the spec's check_email / check_mobile, and the first half of every
   * action that needs a code). A wrong code counts against the code and the client address. Returns the
   * code's id for `consume`.
   */
  async check(input: CheckCodeInput): Promise<number> {
    return this.#verify(input, (tx) =>
      tx.query<CodeRow>(
        `${SELECT_CODE} where destination = $1 and purpose = $2 and ($3::int is null or user_id = $3)
          order by created_at desc, id desc limit 1 for update`,
        [input.destination, input.purpose, input.userId ?? null],
      ),
    );
  }

  /**
   * The template's check_email / check_mobile: the code alone, matched against the latest code sent by
   * `channel` to the client that holds the token. Like `check`, it does not use the code up.
   */
  async checkForClient(input: CheckClientCodeInput): Promise<number> {
    return this.#verify(input, (tx) =>
      tx.query<CodeRow>(
        `${SELECT_CODE} where client_hash = $1 and channel = $2 order by created_at desc, id desc limit 1
          for update`,
        [input.clientHash, input.channel],
      ),
    );
  }

  /**
   * One step under the client address's lock and the code row's lock: the wrong-code limits are read, the
   * code compared, and a wrong try counted before the next request of the same address or for the same code
   * reads them, so parallel guesses cannot share one count.
   */
  async #verify(
    input: { code: string; ip: string },
    find: (tx: Queryable) => Promise<{ rows: CodeRow[] }>,
  ): Promise<number> {
    const wrongCodes = { scope: 'code.wrong.ip', max: WRONG_CODES_PER_IP_PER_HOUR, windowMs: HOUR_MS };
    const outcome = await this.#db.transaction(async (tx): Promise<number | AppError> => {
      await lockCounted(tx, [[wrongCodes.scope, input.ip]]);
      const state = await this.#throttle.state(wrongCodes, input.ip, tx);
      if (state.blocked) {
        return new AppError('account.too_many_failures', { minutes: minutesToWait(state.retryAfterMs) });
      }
      const { rows } = await find(tx);
      const row = rows[0];
      if (!row) return new AppError('code.not_sent');
      if (row.consumed) return new AppError('code.used');
      if (row.expired) return new AppError('code.expired');
      if (row.attempts >= CODE_MAX_ATTEMPTS) return new AppError('code.too_many_attempts');
      const expected = Buffer.from(row.code_hash, 'hex');
      const actual = Buffer.from(hashCode(row.salt, input.code), 'hex');
      if (CODE_PATTERN.test(input.code) && timingSafeEqual(expected, actual)) return row.id;
      const { rows: updated } = await tx.query<{ attempts: number }>(
        'update verification_codes set attempts = attempts + 1 where id = $1 returning attempts',
        [row.id],
      );
      await this.#throttle.record(wrongCodes.scope, input.ip, tx);
      const left = CODE_MAX_ATTEMPTS - (updated[0]?.attempts ?? CODE_MAX_ATTEMPTS);
      if (left <= 0) return new AppError('code.too_many_attempts');
      return new AppError('code.wrong', { left });
    });
    if (outcome instanceof AppError) throw outcome;
    return outcome;
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

  /** Why a send is refused now, read inside the transaction that holds the send's locks; null when allowed. */
  async #sendRefusal(tx: Queryable, input: SendCodeInput): Promise<AppError | null> {
    const { rows } = await tx.query<{ waited_ms: number }>(
      `select (extract(epoch from (now() - created_at)) * 1000)::int as waited_ms
         from verification_codes where destination = $1 and purpose = $2
        order by created_at desc limit 1`,
      [input.destination, input.purpose],
    );
    const waitedMs = rows[0]?.waited_ms;
    if (waitedMs !== undefined && waitedMs < CODE_RESEND_MS) {
      return new AppError('code.resend_wait', {
        seconds: Math.min(CODE_RESEND_MS / 1000, Math.ceil((CODE_RESEND_MS - waitedMs) / 1000)),
      });
    }
    const perHour = (scope: string, max: number): Limit => ({ scope, max, windowMs: HOUR_MS });
    const limits: Array<[Limit, string]> = [
      [perHour('code.send.destination', this.#limits.sendsPerHour), input.destination],
      [perHour('code.send.ip', this.#limits.sendsPerIpPerHour), input.ip],
    ];
    if (input.userId !== null) {
      limits.push([perHour('code.send.user', this.#limits.sendsPerHour), String(input.userId)]);
    }
    for (const [limit, subject] of limits) {
      const state = await this.#throttle.state(limit, subject, tx);
      if (state.blocked) {
        return new AppError('code.too_many_requests', { minutes: minutesToWait(state.retryAfterMs) });
      }
    }
    return null;
  }
}
