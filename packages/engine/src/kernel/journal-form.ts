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
/** A form's field names are plain identifiers: the form's reader is compiled with them (compiledReader). */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

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
      if (!FIELD_NAME.test(field.name) || field.name === '__proto__') {
        throw new Error(`journal form ${form.type}: field name "${field.name}" is not an identifier`);
      }
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

/** True when the line from `start` in `bytes` is a compact line (else it is JSON). */
export function isCompactLineAt(bytes: Uint8Array, start: number): boolean {
  return bytes[start] === MARK;
}

/** Where decodeCompact writes a text's bytes before reading them; grown as lines need. */
let scratch = new Uint8Array(1_024);
const encoder = new TextEncoder();

/**
 * Decodes a compact line written by encodeCompact. Anything else - an unknown tag, a field too many or too
 * few, a number with a sign or leading zero it would not have been written with, an enum index out of range -
 * is a SyntaxError. The engine still validates the command when applied.
 */
export function decodeCompact(text: string, forms: JournalForms): Envelope {
  // A compact line is ASCII: any other character becomes bytes of 0x80 and above, which no field accepts.
  if (text.length * 3 > scratch.length) scratch = new Uint8Array(text.length * 3);
  const { written } = encoder.encodeInto(text, scratch);
  return decodeCompactBytes(scratch, 0, written, forms, text);
}

/**
 * decodeCompact for the line held in `bytes` from `start` to `end` (exclusive, without its newline): a
 * restart reads the durable log's files as bytes and decodes them without making a string of each line
 * first. `text`, when the bytes were made from one, is where tokens are cut from.
 */
export function decodeCompactBytes(
  bytes: Uint8Array,
  start: number,
  end: number,
  forms: JournalForms,
  text?: string,
): Envelope {
  const form = forms.byTag.get(end - start > 1 ? (bytes[start + 1] as number) : -1);
  if (form === undefined || bytes[start] !== MARK || end - start < 3 || bytes[start + 2] !== COMMA) {
    throw new SyntaxError(
      `journal line "${latin1(bytes, start, Math.min(end, start + 40))}" has no journal form`,
    );
  }
  const reader = new LineReader(bytes, start, end, text);
  const seq = reader.int();
  const timeMs = reader.int();
  const idempotencyKey = reader.token(true);
  const command = commandReader(form)(reader);
  reader.end();
  return (
    idempotencyKey === undefined ? { seq, timeMs, command } : { seq, timeMs, idempotencyKey, command }
  ) as Envelope;
}

/** Reads a command's fields from a line, after its envelope's. */
type CommandReader = (reader: LineReader) => Record<string, unknown>;

const commandReaders = new WeakMap<JournalForm, CommandReader>();

/** The form's command reader, made the first time a line of it is read. */
function commandReader(form: JournalForm): CommandReader {
  let read = commandReaders.get(form);
  if (read === undefined) {
    read = compiledReader(form) ?? ((reader) => readFields(form, reader));
    commandReaders.set(form, read);
  }
  return read;
}

/** The fields in the form's order: any form, each field's name looked up as it is set. */
function readFields(form: JournalForm, reader: LineReader): Record<string, unknown> {
  const command: Record<string, unknown> = { type: form.type };
  for (const field of form.fields) {
    if (field.optional === true && reader.empty()) continue;
    command[field.name] = reader.field(field);
  }
  return command;
}

/**
 * readFields written out for one form: `command.owner = reader.owner(); ...`. Setting a property whose name
 * varies (readFields) goes through V8's generic lookup on every field of every line, about half of a line's
 * decoding; each assignment written with its own name is a fixed step. The code is made from the form's
 * checked field names (plain identifiers) and kinds only; where making code is not allowed (a page's content
 * security policy), readFields serves.
 */
function compiledReader(form: JournalForm): CommandReader | undefined {
  const steps = form.fields.map((field, index) => {
    const value =
      field.kind === 'enum'
        ? `reader.enumField(fields[${index}])`
        : field.kind === 'token'
          ? 'reader.token(false)'
          : `reader.${field.kind}()`;
    const assign = `command.${field.name} = ${value};`;
    return field.optional === true ? `if (!reader.empty()) ${assign}` : assign;
  });
  const body = `return (reader) => {\n const command = { type };\n ${steps.join('\n ')}\n return command;\n};`;
  try {
    return new Function('type', 'fields', body)(form.type, form.fields) as CommandReader;
  } catch {
    return undefined;
  }
}

/** The bytes from `start` to `end` as text, one character each (a compact line is ASCII). */
function latin1(bytes: Uint8Array, start: number, end: number): string {
  let text = '';
  for (let at = start; at < end; at++) text += String.fromCharCode(bytes[at] as number);
  return text;
}

/** Digits a double holds exactly whatever they are: fewer than 2^53's sixteen. */
const EXACT_DIGITS = 15;

/** Reads a compact line's comma-separated fields in order, byte by byte. */
class LineReader {
  readonly #bytes: Uint8Array;
  readonly #start: number;
  readonly #end: number;
  readonly #text: string | undefined;
  /** The current field's first byte. */
  #at: number;
  #fields = 0;
  /** The digits of the number #number read last. */
  #digits = 0;

  constructor(bytes: Uint8Array, start: number, end: number, text: string | undefined) {
    this.#bytes = bytes;
    this.#start = start;
    this.#end = end;
    this.#text = text;
    this.#at = start + 3;
  }

  /** The byte at `at`, or -1 past the line's end. */
  #code(at: number): number {
    return at < this.#end ? (this.#bytes[at] as number) : -1;
  }

  /** Passes over an empty field and says so. */
  empty(): boolean {
    const code = this.#code(this.#at);
    if (code !== COMMA && code !== -1) return false;
    this.#next(this.#at);
    return true;
  }

  field(field: JournalField): unknown {
    switch (field.kind) {
      case 'int':
        return this.int();
      case 'bigint':
        return this.bigint();
      case 'owner':
        return this.owner();
      case 'token':
        return this.token(false);
      case 'enum':
        return this.enumField(field);
    }
  }

  owner(): number | string {
    const code = this.#code(this.#at);
    return code === MINUS || (code >= ZERO && code <= NINE) ? this.int() : this.#ownerName();
  }

  enumField(field: JournalField & { kind: 'enum' }): string {
    const index = this.int();
    const value = field.values[index];
    if (value === undefined) this.#fail(`${field.name} index ${index}`);
    return value;
  }

  int(): number {
    return this.#number(true);
  }

  bigint(): bigint {
    const start = this.#at;
    const value = this.#number(false);
    // Up to fifteen digits the double is the exact value; longer ones are read from their text.
    return this.#digits <= EXACT_DIGITS ? BigInt(value) : BigInt(this.#slice(start, this.#at - 1));
  }

  /**
   * Reads the field as a number as written (see #checkNumber) and moves past it: its value as a double,
   * exact below 2^53 (a value past it stays past it, rounding being monotonic), refused past it when `safe`.
   * Sets #digits to its count of digits.
   */
  #number(safe: boolean): number {
    const bytes = this.#bytes;
    const end = this.#end;
    let at = this.#at;
    const negative = at < end && bytes[at] === MINUS;
    if (negative) at++;
    const first = at;
    let value = 0;
    let code = at < end ? (bytes[at] as number) : -1;
    while (code >= ZERO && code <= NINE) {
      value = value * 10 + (code - ZERO);
      code = ++at < end ? (bytes[at] as number) : -1;
    }
    this.#checkNumber(first, at, code);
    if (safe && value > Number.MAX_SAFE_INTEGER) this.#fail('an integer past the safe range');
    this.#digits = at - first;
    this.#next(at);
    return negative ? -value : value;
  }

  /** A token (TOKEN); an empty field is undefined when `optional`. */
  token(optional: boolean): string | undefined {
    const end = this.#fieldEnd();
    if (end === this.#at) {
      if (!optional) this.#fail('an empty token');
      this.#next(end);
      return undefined;
    }
    for (let at = this.#at; at < end; at++) {
      if (!isTokenByte(this.#bytes[at] as number))
        this.#fail('a token with a character outside its alphabet');
    }
    if (end - this.#at > MAX_TOKEN_LENGTH) this.#fail('a token too long');
    const value = this.#slice(this.#at, end);
    this.#next(end);
    return value;
  }

  /** Nothing may follow the last field. */
  end(): void {
    if (this.#at !== this.#end + 1) this.#fail('text after the last field');
  }

  #ownerName(): string {
    const end = this.#fieldEnd();
    const value = this.#slice(this.#at, end);
    if (!OWNER_NAME.test(value)) this.#fail(`owner "${value}"`);
    this.#next(end);
    return value;
  }

  /** The line's bytes from `from` to `to` as text: cut from the text they were made from, if any. */
  #slice(from: number, to: number): string {
    const text = this.#text;
    return text === undefined
      ? latin1(this.#bytes, from, to)
      : text.slice(from - this.#start, to - this.#start);
  }

  /**
   * Digits from `first` to `end` (where `code` stands) are a number as written: 0 or digits without a leading
   * 0, no negative zero, followed by the field's end.
   */
  #checkNumber(first: number, end: number, code: number): void {
    const bytes = this.#bytes;
    if (end === first || (bytes[first] === ZERO && end - first > 1)) this.#fail('a malformed number');
    if (first > this.#at && bytes[first] === ZERO) this.#fail('a negative zero');
    if (code !== COMMA && code !== -1) this.#fail('a malformed number');
  }

  #fieldEnd(): number {
    const bytes = this.#bytes;
    let at = this.#at;
    while (at < this.#end && bytes[at] !== COMMA) at++;
    return at;
  }

  /** Moves past the field ending at `end` and its comma; past the line's end is an error but for the last. */
  #next(end: number): void {
    if (end > this.#end || (end === this.#end && this.#at > this.#end)) {
      this.#fail('a field too few');
    }
    this.#at = end + 1;
    this.#fields++;
  }

  #fail(what: string): never {
    const shown = latin1(this.#bytes, this.#start, Math.min(this.#end, this.#start + 40));
    throw new SyntaxError(`journal line "${shown}": ${what} in field ${this.#fields + 1}`);
  }
}

const MAX_TOKEN_LENGTH = 128;

/** A byte of TOKEN's alphabet: A-Z a-z 0-9 _ . : - */
function isTokenByte(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= ZERO && code <= 0x3a) ||
    code === 0x5f ||
    code === 0x2e ||
    code === MINUS
  );
}
