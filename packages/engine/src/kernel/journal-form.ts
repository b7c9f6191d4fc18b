// The journal's compact line for the commands an exchange journals most (orders, cancels, deposits). A JSON
// envelope spells every field name and is parsed by the general parser; a restart replays a million of them,
// and parsing was a third of that replay. An area may give a command type a journal form: a fixed list of
// fields written by position, one line
//
//   ~<tag>,<seq>,<timeMs>,<idempotency key or nothing>,<field 1>,...,<field n>
//
// with an absent optional field written as nothing. It is about a third of the JSON's length and decodes
// about three times faster. An envelope the form cannot hold exactly (a field the form does not list, a
// text outside the token alphabet, a number that is not a safe integer) is written as JSON instead, so
// decode(encode(envelope)) is always the envelope, and a field added to a command without its form only
// sends that command back to JSON. Lines that start with "{" are JSON, as every journal written before the
// forms existed.
import type { Envelope } from '../commands.ts';

/** How a form writes one field. */
export type JournalField =
  /** A safe integer, in decimal. */
  | { readonly name: string; readonly kind: 'int'; readonly optional?: boolean }
  /** A bigint, in decimal. */
  | { readonly name: string; readonly kind: 'bigint'; readonly optional?: boolean }
  /** An account owner: a user id (a safe integer) or a system owner's name (letters and digits). */
  | { readonly name: string; readonly kind: 'owner'; readonly optional?: boolean }
  /** Text of 1 to 128 characters of TOKEN (a client order id, a memo without spaces). */
  | { readonly name: string; readonly kind: 'token'; readonly optional?: boolean }
  /** One of `values`, written as its index. */
  | {
      readonly name: string;
      readonly kind: 'enum';
      readonly values: readonly string[];
      readonly optional?: boolean;
    };

/** A command type's journal form. */
export interface JournalForm {
  /** The command's type. */
  readonly type: string;
  /** One letter or digit, unique among the forms of an engine's areas. */
  readonly tag: string;
  readonly fields: readonly JournalField[];
}

/** The characters of a token field and of an idempotency key on a compact line: the API's key alphabet. */
const TOKEN = /^[A-Za-z0-9_.:-]{1,128}$/;
/** A system owner's name. */
const OWNER_NAME = /^[A-Za-z][A-Za-z0-9]{0,31}$/;
const TAG = /^[A-Za-z0-9]$/;

const COMMA = 0x2c;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
/** The first character of a compact line. */
const MARK = 0x7e;

/** The forms of an engine's areas, by command type and by tag. */
export interface JournalForms {
  readonly byType: ReadonlyMap<string, JournalForm>;
  readonly byTag: ReadonlyMap<number, JournalForm>;
}

/** Checks the forms (one per type, unique tags, field names) and indexes them. */
export function journalFormsOf(forms: readonly JournalForm[]): JournalForms {
  const byType = new Map<string, JournalForm>();
  const byTag = new Map<number, JournalForm>();
  for (const form of forms) {
    if (!TAG.test(form.tag))
      throw new Error(`journal form ${form.type}: tag "${form.tag}" is not one letter`);
    if (byType.has(form.type)) throw new Error(`two journal forms for command type ${form.type}`);
    const code = form.tag.charCodeAt(0);
    const other = byTag.get(code);
    if (other) throw new Error(`journal forms ${other.type} and ${form.type} share tag ${form.tag}`);
    const names = new Set<string>(['type']);
    for (const field of form.fields) {
      if (names.has(field.name)) throw new Error(`journal form ${form.type} lists ${field.name} twice`);
      names.add(field.name);
      if (field.kind === 'enum' && (field.values.length === 0 || field.values.length > 10)) {
        throw new Error(`journal form ${form.type}: enum ${field.name} needs 1 to 10 values`);
      }
    }
    byType.set(form.type, form);
    byTag.set(code, form);
  }
  return { byType, byTag };
}

/** The envelope's compact line, or undefined when its command has no form or the form cannot hold it. */
export function encodeCompact(envelope: Envelope, forms: JournalForms): string | undefined {
  const command = envelope.command as unknown as Record<string, unknown>;
  const form = forms.byType.get(command.type as string);
  if (form === undefined) return undefined;
  let keys = 0;
  for (const key in envelope) {
    if ((envelope as Record<string, unknown>)[key] === undefined) continue;
    if (key !== 'seq' && key !== 'timeMs' && key !== 'command' && key !== 'idempotencyKey') return undefined;
    keys++;
  }
  const { seq, timeMs, idempotencyKey } = envelope;
  if (!Number.isSafeInteger(seq) || !Number.isSafeInteger(timeMs)) return undefined;
  if (idempotencyKey !== undefined && (typeof idempotencyKey !== 'string' || !TOKEN.test(idempotencyKey)))
    return undefined;
  if (keys !== (idempotencyKey === undefined ? 3 : 4)) return undefined;
  let line = `~${form.tag},${seq},${timeMs},${idempotencyKey ?? ''}`;
  // The type and every field written: the command may hold nothing else.
  let written = 1;
  for (const field of form.fields) {
    const value = command[field.name];
    if (value === undefined) {
      if (field.optional !== true) return undefined;
      line += ',';
      continue;
    }
    const text = fieldText(field, value);
    if (text === undefined) return undefined;
    line += `,${text}`;
    written++;
  }
  let defined = 0;
  for (const key in command) if (command[key] !== undefined) defined++;
  return defined === written ? line : undefined;
}

function fieldText(field: JournalField, value: unknown): string | undefined {
  switch (field.kind) {
    case 'int':
      return Number.isSafeInteger(value) ? String(value) : undefined;
    case 'bigint':
      return typeof value === 'bigint' ? value.toString() : undefined;
    case 'owner':
      if (Number.isSafeInteger(value)) return String(value);
      return typeof value === 'string' && OWNER_NAME.test(value) ? value : undefined;
    case 'token':
      return typeof value === 'string' && TOKEN.test(value) ? value : undefined;
    case 'enum': {
      const index = field.values.indexOf(value as string);
      return index < 0 ? undefined : String(index);
    }
  }
}

/** True for a compact line (else the text is JSON). */
export function isCompactLine(text: string): boolean {
  return text.charCodeAt(0) === MARK;
}

/**
 * Decodes a compact line written by encodeCompact. Anything else - an unknown tag, a field too many or too
 * few, a number with a sign or leading zero it would not have been written with, an enum index out of range -
 * is a SyntaxError. The engine still validates the command when applied.
 */
export function decodeCompact(text: string, forms: JournalForms): Envelope {
  const form = forms.byTag.get(text.charCodeAt(1));
  if (form === undefined || text.charCodeAt(0) !== MARK || text.charCodeAt(2) !== COMMA) {
    throw new SyntaxError(`journal line "${text.slice(0, 40)}" has no journal form`);
  }
  const reader = new LineReader(text, 3);
  const seq = reader.int();
  const timeMs = reader.int();
  const idempotencyKey = reader.token(true);
  const command: Record<string, unknown> = { type: form.type };
  for (const field of form.fields) {
    if (field.optional === true && reader.empty()) continue;
    command[field.name] = reader.field(field);
  }
  reader.end();
  return (
    idempotencyKey === undefined ? { seq, timeMs, command } : { seq, timeMs, idempotencyKey, command }
  ) as Envelope;
}

/** Reads a compact line's comma-separated fields in order, char by char. */
class LineReader {
  readonly #text: string;
  #at: number;
  #fields = 0;

  constructor(text: string, at: number) {
    this.#text = text;
    this.#at = at;
  }

  /** Passes over an empty field and says so. */
  empty(): boolean {
    const code = this.#text.charCodeAt(this.#at);
    if (code !== COMMA && !Number.isNaN(code)) return false;
    this.#next(this.#at);
    return true;
  }

  field(field: JournalField): unknown {
    switch (field.kind) {
      case 'int':
        return this.int();
      case 'bigint':
        return this.bigint();
      case 'owner': {
        const code = this.#text.charCodeAt(this.#at);
        return code === MINUS || (code >= ZERO && code <= NINE) ? this.int() : this.#ownerName();
      }
      case 'token':
        return this.token(false);
      case 'enum': {
        const index = this.int();
        const value = field.values[index];
        if (value === undefined) this.#fail(`${field.name} index ${index}`);
        return value;
      }
    }
  }

  int(): number {
    const text = this.#text;
    let at = this.#at;
    const negative = text.charCodeAt(at) === MINUS;
    if (negative) at++;
    const first = at;
    let value = 0;
    let code = text.charCodeAt(at);
    while (code >= ZERO && code <= NINE) {
      // Exact while below 2^53; a value past it stays past it (rounding is monotonic) and is refused below.
      value = value * 10 + (code - ZERO);
      code = text.charCodeAt(++at);
    }
    this.#checkNumber(first, at, code);
    if (value > Number.MAX_SAFE_INTEGER) this.#fail('an integer past the safe range');
    this.#next(at);
    return negative ? -value : value;
  }

  bigint(): bigint {
    const text = this.#text;
    let at = this.#at;
    if (text.charCodeAt(at) === MINUS) at++;
    const first = at;
    let code = text.charCodeAt(at);
    while (code >= ZERO && code <= NINE) code = text.charCodeAt(++at);
    this.#checkNumber(first, at, code);
    const value = BigInt(text.slice(this.#at, at));
    this.#next(at);
    return value;
  }

  /** A token (TOKEN); an empty field is undefined when `optional`. */
  token(optional: boolean): string | undefined {
    const end = this.#fieldEnd();
    if (end === this.#at) {
      if (!optional) this.#fail('an empty token');
      this.#next(end);
      return undefined;
    }
    const value = this.#text.slice(this.#at, end);
    if (!TOKEN.test(value)) this.#fail(`token "${value}"`);
    this.#next(end);
    return value;
  }

  /** Nothing may follow the last field. */
  end(): void {
    if (this.#at !== this.#text.length + 1) this.#fail('text after the last field');
  }

  #ownerName(): string {
    const end = this.#fieldEnd();
    const value = this.#text.slice(this.#at, end);
    if (!OWNER_NAME.test(value)) this.#fail(`owner "${value}"`);
    this.#next(end);
    return value;
  }

  /**
   * Digits from `first` to `end` (where `code` stands) are a number as written: 0 or digits without a leading
   * 0, no negative zero, followed by the field's end.
   */
  #checkNumber(first: number, end: number, code: number): void {
    const text = this.#text;
    if (end === first || (text.charCodeAt(first) === ZERO && end - first > 1)) this.#fail('a malformed number');
    if (first > this.#at && text.charCodeAt(first) === ZERO) this.#fail('a negative zero');
    if (code !== COMMA && !Number.isNaN(code)) this.#fail('a malformed number');
  }

  #fieldEnd(): number {
    const end = this.#text.indexOf(',', this.#at);
    return end < 0 ? this.#text.length : end;
  }

  /** Moves past the field ending at `end` and its comma; past the line's end is an error but for the last. */
  #next(end: number): void {
    if (end > this.#text.length || (end === this.#text.length && this.#at > this.#text.length)) {
      this.#fail('a field too few');
    }
    this.#at = end + 1;
    this.#fields++;
  }

  #fail(what: string): never {
    throw new SyntaxError(`journal line "${this.#text.slice(0, 40)}": ${what} in field ${this.#fields + 1}`);
  }
}
