// The verification code messages, in the language of the request that asked for them.
import type { Language } from '@fairex/shared';
import { translate } from '@fairex/shared';
import type { OutgoingEmail, OutgoingSms } from './messenger.ts';

export type CodePurpose = 'register' | 'forget' | 'bind_email' | 'bind_mobile' | 'withdraw' | 'p2p_release';

export interface CodeMessageInput {
  lang: Language;
  code: string;
  purpose: CodePurpose;
  minutes: number;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

export function codeEmail(to: string, input: CodeMessageInput): OutgoingEmail {
  const { lang, code, minutes } = input;
  const purpose = translate(lang, `purpose.${input.purpose}`);
  const lines = [
    translate(lang, 'mail.code_body', { purpose, code }),
    translate(lang, 'mail.code_validity', { minutes }),
    translate(lang, 'mail.code_ignore'),
  ];
  const html =
    `<div style="font-family:Arial,sans-serif;font-size:14px;line-height:1.6;color:#0f172a">` +
    `<p>${escapeHtml(lines[0] ?? '')}</p>` +
    `<p style="font-size:28px;font-weight:bold;letter-spacing:6px;margin:16px 0">${escapeHtml(code)}</p>` +
    `<p>${escapeHtml(lines[1] ?? '')}</p><p style="color:#64748b">${escapeHtml(lines[2] ?? '')}</p></div>`;
  return {
    to,
    subject: translate(lang, 'mail.code_subject', { code }),
    text: lines.join('\n\n'),
    html,
    purpose: `code:${input.purpose}`,
  };
}

export function codeSms(to: string, input: CodeMessageInput): OutgoingSms {
  const purpose = translate(input.lang, `purpose.${input.purpose}`);
  return {
    to,
    text: translate(input.lang, 'sms.code', { code: input.code, purpose, minutes: input.minutes }),
    purpose: `code:${input.purpose}`,
  };
}
