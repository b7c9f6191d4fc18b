import { AREAS } from './areas.ts';
import type { Envelope } from './commands.ts';
import type { EngineEvent } from './events.ts';
import type { AnyArea } from './kernel/area.ts';
import { fromJsonValue as decodeFields, toJsonValue } from './kernel/json.ts';
import {
  decodeCompact,
  decodeCompactBytes,
  encodeCompact,
  isCompactLine,
  isCompactLineAt,
  journalFormsOf,
} from './kernel/journal-form.ts';

export { toJsonValue };

/** The union of the areas' bigint field names (Area.bigintFields). */
export function bigintFieldsOf(areas: readonly AnyArea[]): ReadonlySet<string> {
  const fields = new Set<string>();
  for (const area of areas) for (const field of area.bigintFields ?? []) fields.add(field);
  return fields;
}

/**
 * Names of the fields that hold bigint amounts, in commands, events and replies: the union of every
 * area's list. JSON has no bigint, so these travel as decimal strings and are turned back into bigints by
 * name when decoded. A field name means the same thing everywhere it appears, so one list serves every
 * type; a test round-trips one value of every command and event type to keep the lists complete.
 */
export const BIGINT_FIELDS: ReadonlySet<string> = bigintFieldsOf(AREAS);

/** Journal lines of the durable log: UTF-8, refused when not (`fatal`). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Encoders and decoders for an engine made of `areas` (the default functions below use the product's). */
export function codecFor(areas: readonly AnyArea[]) {
  const fields = bigintFieldsOf(areas);
  const forms = journalFormsOf(areas.flatMap((area) => area.journalForms ?? []));
  const fromJsonValue = (value: unknown): unknown => decodeFields(value, fields);
  const envelopeOfJson = (text: string): Envelope => {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new SyntaxError('an envelope must be a JSON object');
    }
    return fromJsonValue(parsed) as Envelope;
  };
  return {
    bigintFields: fields,
    fromJsonValue,
    /**
     * An envelope's journal line: the compact line of its command's journal form where the form holds it
     * exactly (kernel/journal-form.ts), else JSON with bigints as decimal strings.
     */
    encodeEnvelope: (envelope: Envelope): string =>
      encodeCompact(envelope, forms) ?? JSON.stringify(toJsonValue(envelope)),
    /**
     * Decodes a journal line written by encodeEnvelope, compact or JSON (every line written before the
     * forms existed). The engine still validates the command when applied.
     */
    decodeEnvelope(text: string): Envelope {
      if (isCompactLine(text)) return decodeCompact(text, forms);
      return envelopeOfJson(text);
    },
    /**
     * decodeEnvelope for the line held in `bytes` (UTF-8) from `start` to `end` (exclusive, without its
     * newline): the durable log's files are read as bytes, and a compact line decodes from them without a
     * string made of it first.
     */
    decodeEnvelopeBytes(bytes: Uint8Array, start: number, end: number): Envelope {
      if (isCompactLineAt(bytes, start)) return decodeCompactBytes(bytes, start, end, forms);
      return envelopeOfJson(utf8.decode(bytes.subarray(start, end)));
    },
    encodeEvents: (events: EngineEvent[]): string => JSON.stringify(toJsonValue(events)),
    decodeEvents(text: string): EngineEvent[] {
      const parsed = JSON.parse(text) as unknown;
      if (!Array.isArray(parsed)) throw new SyntaxError('events must be a JSON array');
      return fromJsonValue(parsed) as EngineEvent[];
    },
    /** Any engine value (a reply, a balance) as JSON text with bigints as decimal strings. */
    encodeValue: (value: unknown): string => JSON.stringify(toJsonValue(value)),
    decodeValue: (text: string): unknown => fromJsonValue(JSON.parse(text) as unknown),
  };
}

const codec = codecFor(AREAS);

/** The inverse of toJsonValue for parsed JSON: strings in bigint fields become bigints again (in place). */
export const fromJsonValue = codec.fromJsonValue;
export const encodeEnvelope = codec.encodeEnvelope;
export const decodeEnvelope = codec.decodeEnvelope;
export const decodeEnvelopeBytes = codec.decodeEnvelopeBytes;
export const encodeEvents = codec.encodeEvents;
export const decodeEvents = codec.decodeEvents;
export const encodeValue = codec.encodeValue;
export const decodeValue = codec.decodeValue;
