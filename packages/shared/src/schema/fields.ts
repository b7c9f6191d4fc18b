// Zod field schemas for /api inputs. Form-encoded bodies carry every value as a string and JSON bodies may
// carry numbers, so each field accepts both and yields one typed value. Failures carry a message key of
// the server catalogue and its parameters, so the reply can be translated (see issueMessage).
import { z } from 'zod';
import { MAX_SCALE, tryParseDecimal } from '../decimal.ts';
import type { MessageKey, MessageParams } from '../i18n/index.ts';
import { isMessageKey } from '../i18n/index.ts';

type Check<T> = { ok: true; value: T } | { ok: false; key: MessageKey; params?: MessageParams };

export const INT32_MAX = 2_147_483_647;

/** The input of a call that takes no fields (unknown fields are ignored, as everywhere). */
export const noInput = z.object({});

/** A required field: missing, null and the empty string all count as not given. */
function field<T>(check: (value: unknown) => Check<T>) {
  return z.unknown().transform((value, context): T => {
    if (value === undefined || value === null || value === '') {
      context.issues.push({ code: 'custom', message: 'validation.required', input: value });
      return z.NEVER;
    }
    const result = check(value);
    if (!result.ok) {
      context.issues.push({ code: 'custom', message: result.key, params: result.params ?? {}, input: value });
      return z.NEVER;
    }
    return result.value;
  });
}

/** Makes a field optional; the empty string and null count as not given (form clients send empty fields). */
export function optional<S extends z.ZodType>(schema: S) {
  return z.preprocess((value) => (value === '' || value === null ? undefined : value), schema.optional());
}

function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A whole number in [min, max] (defaults 0 .. 2^31-1), from "12" or 12. */
export function integer(options: { min?: number; max?: number } = {}) {
  const min = options.min ?? 0;
  const max = options.max ?? INT32_MAX;
  return field<number>((value) => {
    const text = asText(value);
    if (text === undefined || !/^-?\d{1,16}$/.test(text)) return { ok: false, key: 'validation.integer' };
    const number = Number(text);
    if (!Number.isSafeInteger(number) || number < min || number > max) {
      return { ok: false, key: 'validation.integer_range', params: { min, max } };
    }
    return { ok: true, value: number };
  });
}

/** The first millisecond of 2001 (UTC). A time field below it (but above 0) was given in seconds. */
export const TIME_MS_MIN = 978_307_200_000;

/**
 * A time in milliseconds since the epoch, at most `max`. A positive value below the year 2001 is refused
 * with a message saying milliseconds are expected: it is almost surely a time in seconds, which would
 * otherwise select a range in 1970 and answer nothing. 0 (the same instant in either unit) stays accepted
 * as "from the beginning".
 */
export function timeMs(options: { max: number }) {
  return field<number>((value): Check<number> => {
    const text = asText(value);
    if (text === undefined || !/^-?\d{1,16}$/.test(text)) return { ok: false, key: 'validation.integer' };
    const number = Number(text);
    if (!Number.isSafeInteger(number) || number < 0 || number > options.max) {
      return { ok: false, key: 'validation.integer_range', params: { min: 0, max: options.max } };
    }
    if (number > 0 && number < TIME_MS_MIN)
      return { ok: false, key: 'validation.time_ms', params: { value: text } };
    return { ok: true, value: number };
  });
}

/** A row id: a whole number from 1 to 2^31-1. */
export function id() {
  return integer({ min: 1 });
}

/** A page number (1 .. 100,000), optional; routes default it to 1. */
export function page() {
  return optional(integer({ min: 1, max: 100_000 }));
}

/** One of the listed values; "1" matches 1, so form and JSON clients both work. */
export function oneOf<const V extends string | number>(values: readonly V[]) {
  return field<V>((value) => {
    const text = asText(value);
    const match = values.find((candidate) => String(candidate) === text);
    if (match === undefined)
      return { ok: false, key: 'validation.one_of', params: { values: values.join(', ') } };
    return { ok: true, value: match };
  });
}

/** Text, trimmed, of min..max characters (default 1..200). */
export function text(options: { min?: number; max?: number; trim?: boolean } = {}) {
  const min = options.min ?? 1;
  const max = options.max ?? 200;
  return field<string>((value) => {
    const raw = asText(value);
    if (raw === undefined) return { ok: false, key: 'validation.invalid' };
    const result = options.trim === false ? raw : raw.trim();
    if (result.length < min || result.length > max) {
      return { ok: false, key: 'validation.text_length', params: { min, max } };
    }
    return { ok: true, value: result };
  });
}

/** Whether text holds a control character a note may not: C0 but tab, line feed and return; DEL; C1. */
function hasForbiddenControl(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 ? code !== 0x09 && code !== 0x0a && code !== 0x0d : code >= 0x7f && code <= 0x9f)
      return true;
  }
  return false;
}

/**
 * Free text an operator writes (a note, a reason), trimmed, of min..max characters (default 1..200). It may
 * span lines and hold tabs; any other control character is refused, as a character no reader can see.
 */
export function note(options: { min?: number; max?: number } = {}) {
  const min = options.min ?? 1;
  const max = options.max ?? 200;
  return field<string>((value) => {
    const raw = asText(value);
    if (raw === undefined) return { ok: false, key: 'validation.invalid' };
    const result = raw.trim();
    if (hasForbiddenControl(result)) return { ok: false, key: 'validation.control_character' };
    if (result.length < min || result.length > max) {
      return { ok: false, key: 'validation.text_length', params: { min, max } };
    }
    return { ok: true, value: result };
  });
}

export interface DecimalFieldOptions {
  /** Accept negative values (default false). */
  allowNegative?: boolean;
  /** Refuse zero and below (default false). */
  positive?: boolean;
}

function decimalCheck(
  value: unknown,
  scale: number,
  options: DecimalFieldOptions,
  max?: bigint,
): Check<bigint> {
  const raw = asText(value);
  if (raw === undefined) return { ok: false, key: 'validation.decimal' };
  const result = tryParseDecimal(raw, scale, {
    allowNegative: options.allowNegative,
    min: options.positive ? 1n : undefined,
    max,
  });
  if (result.ok) return result;
  switch (result.code) {
    case 'sign':
      return { ok: false, key: raw.startsWith('-') ? 'validation.decimal_negative' : 'validation.decimal' };
    case 'scale':
      return { ok: false, key: 'validation.decimal_scale', params: { scale } };
    case 'range':
      return {
        ok: false,
        key:
          options.positive && !raw.startsWith('-') && /^[0.]+$/.test(raw)
            ? 'validation.decimal_positive'
            : 'validation.decimal_range',
      };
    default:
      return { ok: false, key: 'validation.decimal' };
  }
}

/** A decimal amount parsed into minor units at a known scale, e.g. decimalMinor(8) for a BTC amount. */
export function decimalMinor(scale: number, options: DecimalFieldOptions = {}) {
  return field<bigint>((value) => decimalCheck(value, scale, options));
}

/** The most decimals a decimal text field accepts before the currency (and its scale) is known. */
export const DECIMAL_TEXT_SCALE = 18;
/** Its largest value, in units of 10^-18: below 10^36, the engine's largest amount. */
const DECIMAL_TEXT_MAX = 10n ** BigInt(36 + DECIMAL_TEXT_SCALE) - 1n;

/**
 * A decimal whose scale is known only later (it depends on the currency in the same request): checked for
 * form here and returned as the string given, to be parsed with parseDecimal at the right scale.
 */
export function decimalText(options: DecimalFieldOptions = {}) {
  const scale = Math.min(DECIMAL_TEXT_SCALE, MAX_SCALE);
  return field<string>((value) => {
    // Only the form is checked here, not a 64-bit amount: 10 at 18 decimals is already beyond one.
    const checked = decimalCheck(value, scale, options, DECIMAL_TEXT_MAX);
    return checked.ok ? { ok: true, value: asText(value) ?? '' } : checked;
  });
}

export interface IssueMessage {
  key: MessageKey;
  params: MessageParams;
  /** The input field the issue is about ("price", "items.0.id"); empty for the body as a whole. */
  field: string;
}

/** The catalogue message for a zod issue, for a translated error reply. */
export function issueMessage(issue: z.core.$ZodIssue): IssueMessage {
  const fieldPath = issue.path.map(String).join('.');
  if (isMessageKey(issue.message)) {
    const params = issue.code === 'custom' ? ((issue.params ?? {}) as MessageParams) : {};
    return { key: issue.message, params, field: fieldPath };
  }
  if (fieldPath === '') return { key: 'validation.body', params: {}, field: fieldPath };
  if (issue.code === 'invalid_value') {
    return {
      key: 'validation.one_of',
      params: { values: issue.values.map(String).join(', ') },
      field: fieldPath,
    };
  }
  return { key: 'validation.invalid', params: {}, field: fieldPath };
}
