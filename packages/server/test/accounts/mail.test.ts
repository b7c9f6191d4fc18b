// Codes leave through real transports: SMTP (an SMTP server started here receives the mail) and an HTTP SMS
// gateway (a local HTTP server receives the text). Messages sent through them keep no body in the database;
// a transport that refuses makes the send fail with a translated message and leaves no code behind.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { removeTempDirs } from '../helper.ts';
import type { AccountsTestApp } from './helpers.ts';
import { accountsApp, call, freshIp, PASSWORD, uniqueEmail } from './helpers.ts';

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

const mails: ReceivedMail[] = [];
const texts: { authorization: string | undefined; body: { to: string; text: string } }[] = [];
let refuseMail = false;
let smtp: SMTPServer;
let smtpPort: number;
let gateway: ReturnType<typeof createServer>;
let gatewayPort: number;
let test: AccountsTestApp;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuseMail) return callback(new Error('mailbox unavailable'));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;

  gateway = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const parsed = JSON.parse(body) as { to: string; text: string };
      texts.push({ authorization: request.headers.authorization, body: parsed });
      response.statusCode = parsed.to.endsWith('0000') ? 500 : 200;
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  gatewayPort = (gateway.address() as AddressInfo).port;

  test = await accountsApp({
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: 'Fairex Test <no-reply@fairex.test>',
    SMS_URL: `http://127.0.0.1:${gatewayPort}/send`,
    SMS_TOKEN: 'gateway-secret',
  });
});

afterAll(async () => {
  await test?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await new Promise<void>((resolve) => gateway.close(() => resolve()));
  await removeTempDirs();
});

function codeFromMail(raw: string): string {
  const match = /\b(\d{6})\b/.exec(raw.split('\r\n\r\n').slice(1).join('\n'));
  if (!match?.[1]) throw new Error('no code in the mail');
  return match[1];
}

describe('SMTP', () => {
  it('mails a translated code that registers the account, and keeps no body', async () => {
    const email = uniqueEmail('smtp');
    expect((await call(test.app, '/sms_mail', { user_string: email }, { lang: 'jp' })).type).toBe('ok');
    const mail = mails.at(-1);
    expect(mail?.to).toEqual([email]);
    expect(mail?.from).toBe('no-reply@fairex.test');
    expect(mail?.raw).toMatch(/Subject: =\?UTF-8\?/);
    const code = codeFromMail(mail?.raw ?? '');
    const registered = await call(test.app, '/user/register', {
      user_string: email,
      code,
      password: PASSWORD,
      re_password: PASSWORD,
    });
    expect(registered.type).toBe('ok');
    const { rows } = await test.store.query(
      'select status, body from outbound_messages where recipient = $1',
      [email],
    );
    expect(rows).toEqual([{ status: 'sent', body: null }]);
  });

  it('reports a refused mail, records it, and lets the user ask again at once', async () => {
    const email = uniqueEmail('refused');
    refuseMail = true;
    try {
      expect(await call(test.app, '/sms_mail', { user_string: email })).toEqual({
        type: 'error',
        message: 'The verification code could not be sent. Please try again later.',
      });
    } finally {
      refuseMail = false;
    }
    const { rows } = await test.store.query<{ status: string }>(
      'select status from outbound_messages where recipient = $1',
      [email],
    );
    expect(rows).toEqual([{ status: 'failed' }]);
    const { rows: codes } = await test.store.query(
      'select 1 from verification_codes where destination = $1',
      [email],
    );
    expect(codes).toEqual([]);
    expect((await call(test.app, '/sms_mail', { user_string: email })).type).toBe('ok');
  });
});

describe('SMS gateway', () => {
  it('posts the code as JSON with the bearer token', async () => {
    const ip = freshIp();
    expect(
      (await call(test.app, '/sms_send', { user_string: '13500135006', area_code: '86' }, { ip, lang: 'zh' }))
        .type,
    ).toBe('ok');
    const text = texts.at(-1);
    expect(text?.authorization).toBe('Bearer gateway-secret');
    expect(text?.body.to).toBe('+8613500135006');
    expect(text?.body.text).toMatch(/^【Fairex】验证码 \d{6}，用于注册，10 分钟内有效。请勿泄露。$/);
    const code = /\d{6}/.exec(text?.body.text ?? '')?.[0] ?? '';
    expect(
      (
        await call(
          test.app,
          '/user/check_mobile',
          { user_string: '13500135006', area_code: '86', mobile_code: code },
          { ip },
        )
      ).type,
    ).toBe('ok');
  });

  it('reports a gateway failure', async () => {
    const reply = await call(test.app, '/sms_send', { user_string: '2025550000', area_code: '1' });
    expect(reply.message).toBe('The verification code could not be sent. Please try again later.');
  });
});
