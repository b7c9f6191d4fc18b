import type { Envelope } from './commands.ts';
import type { EngineEvent } from './events.ts';

/**
 * Names of the fields that hold bigint amounts, in commands, events and replies. JSON has no bigint, so
 * these travel as decimal strings and are turned back into bigints by name when decoded. A field name means
 * the same thing everywhere it appears, so one list serves every type; a test round-trips one value of
 * every command and event type to keep the list complete.
 */
export const BIGINT_FIELDS: ReadonlySet<string> = new Set([
  'amount',
  'feeAmount',
  'payoutAmount',
  'quoteAmountMax',
  'quoteMinorPerTickLot',
  'lotBaseMinor',
  'availableBefore',
  'availableAfter',
  'lockedBefore',
  'lockedAfter',
  'holdAmount',
  'lockedAmount',
  'releasedAmount',
  'baseAmount',
  'quoteAmount',
  'makerFee',
  'takerFee',
  'quoteFilled',
  'feePaid',
  'available',
  'locked',
  'stake',
  'fee',
  'profit',
  'payout',
  'feeRefund',
  'minStake',
  'maxStake',
  'presets',
  'exposureCap',
]);

const integerText = /^-?(0|[1-9][0-9]*)$/;

/** A JSON-ready copy: bigints become decimal strings, undefined fields are left out. */
export function toJsonValue(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(toJsonValue);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    if (field !== undefined) copy[key] = toJsonValue(field);
  }
  return copy;
}

/** The inverse of toJsonValue for parsed JSON: strings in bigint fields become bigints again (in place). */
export function fromJsonValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) value[index] = fromJsonValue(value[index]);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const field = record[key];
    if (typeof field === 'string' && BIGINT_FIELDS.has(key)) {
      if (!integerText.test(field)) throw new SyntaxError(`field ${key} holds "${field}", not an integer`);
      record[key] = BigInt(field);
    } else if (
      Array.isArray(field) &&
      BIGINT_FIELDS.has(key) &&
      field.every((item) => typeof item === 'string')
    ) {
      // A list of amounts (micro presets).
      record[key] = field.map((item: string) => {
        if (!integerText.test(item)) throw new SyntaxError(`field ${key} holds "${item}", not an integer`);
        return BigInt(item);
      });
    } else if (typeof field === 'object' && field !== null) {
      record[key] = fromJsonValue(field);
    }
  }
  return record;
}

export function encodeEnvelope(envelope: Envelope): string {
  return JSON.stringify(toJsonValue(envelope));
}

/** Decodes journal text written by encodeEnvelope. The engine still validates the command when applied. */
export function decodeEnvelope(text: string): Envelope {
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new SyntaxError('an envelope must be a JSON object');
  }
  return fromJsonValue(parsed) as Envelope;
}

export function encodeEvents(events: EngineEvent[]): string {
  return JSON.stringify(toJsonValue(events));
}

export function decodeEvents(text: string): EngineEvent[] {
  const parsed = JSON.parse(text) as unknown;
  if (!Array.isArray(parsed)) throw new SyntaxError('events must be a JSON array');
  return fromJsonValue(parsed) as EngineEvent[];
}

/** Any engine value (a reply, a balance) as JSON text with bigints as decimal strings. */
export function encodeValue(value: unknown): string {
  return JSON.stringify(toJsonValue(value));
}

export function decodeValue(text: string): unknown {
  return fromJsonValue(JSON.parse(text) as unknown);
}
