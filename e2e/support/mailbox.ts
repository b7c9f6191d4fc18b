// A real SMTP server for end-to-end tests: the Fairex server under test sends its mail here (SMTP_URL), and
// the test reads the verification codes out of what arrived.
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

function decodeBody(headers: string, body: string): string {
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_whole, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** The plain-text part of a raw message (nodemailer sends text and HTML as multipart/alternative). */
export function plainText(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const subject = /^subject:\s*(.*)$/im.exec(headers)?.[1] ?? '';
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  if (!boundary) return { subject, text: decodeBody(headers, body) };
  for (const part of body.split(`--${boundary}`)) {
    const partSplit = part.indexOf('\r\n\r\n');
    if (partSplit < 0) continue;
    const partHeaders = part.slice(0, partSplit);
    if (/content-type:\s*text\/plain/i.test(partHeaders)) {
      return { subject, text: decodeBody(partHeaders, part.slice(partSplit + 4)) };
    }
  }
  return { subject, text: '' };
}

export class Mailbox {
  readonly mails: ReceivedMail[] = [];
  readonly #server: SMTPServer;
  #port = 0;

  constructor() {
    this.#server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const { subject, text } = plainText(Buffer.concat(chunks).toString('utf8'));
          this.mails.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            subject,
            text,
          });
          callback();
        });
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.#port = (this.#server.server.address() as AddressInfo).port;
    return `smtp://127.0.0.1:${this.#port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Waits for a new mail to `to` (after the first `after` mails) and returns the six-digit code in it. */
  async waitForCode(to: string, after: number, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const mail = this.mails.slice(after).find((candidate) => candidate.to.includes(to.toLowerCase()));
      const code = mail ? /\b(\d{6})\b/.exec(mail.text)?.[1] : undefined;
      if (code) return code;
      await sleep(100);
    }
    throw new Error(`No code arrived for ${to} within ${timeoutMs} ms`);
  }
}
