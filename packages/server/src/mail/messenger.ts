// Outgoing e-mail and text messages. E-mail goes through SMTP (nodemailer) when SMTP_URL is set, texts
// through the HTTP gateway at SMS_URL; without them each message lands in the dev outbox: a row of
// outbound_messages with its body, and a log line, so that a developer or an administrator can read it.
// Messages handed to a real transport are recorded without their body.
import type { Transporter } from 'nodemailer';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../store/index.ts';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What the message is for (e.g. "code:register"), kept with the record. */
  purpose: string;
}

export interface OutgoingSms {
  /** +<calling code><national number> */
  to: string;
  text: string;
  purpose: string;
}

export interface MessengerOptions {
  db: Queryable;
  log: FastifyBaseLogger;
  smtpUrl?: string;
  mailFrom: string;
  smsUrl?: string;
  smsToken?: string;
  /** How long an SMS gateway call may take (default 10 s). */
  smsTimeoutMs?: number;
}

export type DeliveryStatus = 'outbox' | 'sent' | 'failed';

export class MessageDeliveryError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'MessageDeliveryError';
  }
}

export class Messenger {
  readonly #options: MessengerOptions;
  readonly #mail: Transporter | null;

  constructor(options: MessengerOptions) {
    this.#options = options;
    this.#mail = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  }

  get emailMode(): 'smtp' | 'outbox' {
    return this.#mail ? 'smtp' : 'outbox';
  }

  get smsMode(): 'gateway' | 'outbox' {
    return this.#options.smsUrl ? 'gateway' : 'outbox';
  }

  /** Sends (or files) an e-mail. Throws MessageDeliveryError when the SMTP server refuses it. */
  async sendEmail(message: OutgoingEmail): Promise<DeliveryStatus> {
    if (!this.#mail) {
      await this.#file('email', message.to, message.subject, message.text, message.purpose, 'outbox');
      this.#options.log.info(
        { to: message.to, subject: message.subject, text: message.text },
        'dev outbox: e-mail',
      );
      return 'outbox';
    }
    try {
      await this.#mail.sendMail({
        from: this.#options.mailFrom,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    } catch (error) {
      await this.#fail('email', message.to, message.subject, message.purpose, error);
      throw new MessageDeliveryError('the SMTP server refused the message', { cause: error });
    }
    await this.#file('email', message.to, message.subject, null, message.purpose, 'sent');
    return 'sent';
  }

  /** Sends (or files) a text message. Throws MessageDeliveryError when the gateway refuses it. */
  async sendSms(message: OutgoingSms): Promise<DeliveryStatus> {
    const url = this.#options.smsUrl;
    if (!url) {
      await this.#file('sms', message.to, null, message.text, message.purpose, 'outbox');
      this.#options.log.info({ to: message.to, text: message.text }, 'dev outbox: text message');
      return 'outbox';
    }
    try {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (this.#options.smsToken) headers.authorization = `Bearer ${this.#options.smsToken}`;
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ to: message.to, text: message.text }),
        signal: AbortSignal.timeout(this.#options.smsTimeoutMs ?? 10_000),
      });
      if (!response.ok) throw new Error(`SMS gateway answered HTTP ${response.status}`);
    } catch (error) {
      await this.#fail('sms', message.to, null, message.purpose, error);
      throw new MessageDeliveryError('the SMS gateway refused the message', { cause: error });
    }
    await this.#file('sms', message.to, null, null, message.purpose, 'sent');
    return 'sent';
  }

  close(): void {
    this.#mail?.close();
  }

  async #fail(
    channel: 'email' | 'sms',
    to: string,
    subject: string | null,
    purpose: string,
    error: unknown,
  ): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    this.#options.log.warn({ channel, to, err: error }, 'message delivery failed');
    await this.#file(channel, to, subject, null, purpose, 'failed', reason.slice(0, 500));
  }

  async #file(
    channel: 'email' | 'sms',
    to: string,
    subject: string | null,
    body: string | null,
    purpose: string,
    status: DeliveryStatus,
    error: string | null = null,
  ): Promise<void> {
    await this.#options.db.query(
      `insert into outbound_messages (channel, recipient, subject, body, purpose, status, error)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [channel, to, subject, body, purpose, status, error],
    );
  }
}
