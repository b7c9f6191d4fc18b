// Counted limits hold under bursts (issue 41): every counted request reserves its count in the transaction
// that checks it, so of many parallel requests exactly the limit get through, and a code mail goes out only
// for a reserved send. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set (where parallel
// transactions really overlap).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@fairex/shared';
import { MAX_KEYS_PER_USER } from '../../src/api-keys/keys.ts';
import { MAX_PAYMENT_METHODS } from '../../src/p2p/payment-methods.ts';
import { removeTempDirs } from '../helper.ts';
import type { BackofficeTestApp, TestAdmin, TestUser } from '../backoffice/helpers.ts';
import {
  backofficeApp,
  call,
  expectOk,
  newAdmin,
  newUser,
  submitRealNameFor,
} from '../backoffice/helpers.ts';

const SENDS_PER_IP = 30;
let test: BackofficeTestApp;
let admin: TestAdmin;

beforeAll(async () => {
  test = await backofficeApp({ CODE_SENDS_PER_HOUR: '10', CODE_SENDS_PER_IP_PER_HOUR: String(SENDS_PER_IP) });
  admin = await newAdmin(test, 'admin');
}, 120_000);

afterAll(async () => {
  await test?.close();
  await removeTempDirs();
});

let counter = 0;
function address(): string {
  counter += 1;
  return `burst${counter}-${Date.now().toString(36)}@example.com`;
}
function ip(): string {
  counter += 1;
  return `10.41.${(counter >> 8) & 255}.${counter & 255}`;
}

async function sendCode(email: string, from: string): Promise<{ type: string; message: unknown }> {
  const response = await test.app.inject({
    method: 'POST',
    url: '/api/sms_mail?lang=en',
    payload: { user_string: email, type: 'register' },
    remoteAddress: from,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { type: string; message: unknown };
}

/** Mails the development outbox holds for the recipients. */
async function mailsTo(recipients: string[]): Promise<number> {
  const { rows } = await test.store.query<{ count: number }>(
    'select count(*)::int as count from outbound_messages where recipient = any($1::text[])',
    [recipients],
  );
  return rows[0]?.count ?? 0;
}

describe('verification code sends', () => {
  it('lets one of 50 parallel sends to one address through, with one mail', async () => {
    const email = address();
    const replies = await Promise.all(Array.from({ length: 50 }, () => sendCode(email, ip())));
    expect(replies.filter((reply) => reply.type === 'ok')).toHaveLength(1);
    const refusals = replies.filter((reply) => reply.type !== 'ok');
    expect(refusals).toHaveLength(49);
    for (const refusal of refusals) expect(String(refusal.message)).toMatch(/wait|too many/i);
    expect(await mailsTo([email])).toBe(1);
    const { rows } = await test.store.query<{ count: number }>(
      'select count(*)::int as count from verification_codes where destination = $1',
      [email],
    );
    expect(rows[0]?.count).toBe(1);
  });

  it('lets one client address reach exactly its hourly limit of addresses with 50 parallel sends', async () => {
    const from = ip();
    const emails = Array.from({ length: 50 }, () => address());
    const replies = await Promise.all(emails.map((email) => sendCode(email, from)));
    expect(replies.filter((reply) => reply.type === 'ok')).toHaveLength(SENDS_PER_IP);
    expect(await mailsTo(emails)).toBe(SENDS_PER_IP);
    const { rows } = await test.store.query<{ count: number }>(
      `select count(*)::int as count from auth_throttle where scope = 'code.send.ip' and subject = $1`,
      [from],
    );
    expect(rows[0]?.count).toBe(SENDS_PER_IP);
  });
});

describe('counted rows of one user', () => {
  it(`leaves exactly ${MAX_KEYS_PER_USER} active API keys after 50 parallel creates`, async () => {
    const user = await newUser(test.store, { reviewStatus: 2 });
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        call(
          test.app,
          'POST',
          '/api_keys/create',
          { label: `bot ${index}`, scopes: 'read' },
          { token: user.token },
        ),
      ),
    );
    expect(replies.filter((reply) => reply.type === 'ok')).toHaveLength(MAX_KEYS_PER_USER);
    for (const reply of replies.filter((r) => r.type !== 'ok')) {
      expect(reply.message).toBe(translate('en', 'api_key.too_many', { max: MAX_KEYS_PER_USER }));
    }
    const { rows } = await test.store.query<{ count: number }>(
      'select count(*)::int as count from api_keys where user_id = $1 and revoked_at is null',
      [user.id],
    );
    expect(rows[0]?.count).toBe(MAX_KEYS_PER_USER);
  });

  it(`leaves exactly ${MAX_PAYMENT_METHODS} payment methods after 30 parallel adds`, async () => {
    const user: TestUser = await newUser(test.store);
    const submission = await submitRealNameFor(test, user, 'Chen Jing');
    expectOk(
      await call(
        test.app,
        'POST',
        '/backoffice/real_name/approve',
        { id: submission },
        { token: admin.token },
      ),
    );
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        call(
          test.app,
          'POST',
          '/p2p/methods/add',
          { method: 'bank', holder_name: 'Chen Jing', account: `62220000${1000 + index}`, bank_name: 'ICBC' },
          { token: user.token },
        ),
      ),
    );
    expect(replies.filter((reply) => reply.type === 'ok')).toHaveLength(MAX_PAYMENT_METHODS);
    for (const reply of replies.filter((r) => r.type !== 'ok')) {
      expect(reply.message).toBe(translate('en', 'p2p.too_many'));
    }
    const { rows } = await test.store.query<{ count: number }>(
      'select count(*)::int as count from p2p_payment_methods where user_id = $1 and active',
      [user.id],
    );
    expect(rows[0]?.count).toBe(MAX_PAYMENT_METHODS);
  });
});
