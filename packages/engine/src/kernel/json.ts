// JSON has no bigint: amounts travel as decimal strings and are turned back into bigints by field name.

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

/**
 * The inverse of toJsonValue for parsed JSON: strings in the named bigint fields become bigints again (in
 * place). A string in such a field that is no integer is a SyntaxError.
 */
export function fromJsonValue(value: unknown, bigintFields: ReadonlySet<string>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1)
      value[index] = fromJsonValue(value[index], bigintFields);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const field = record[key];
    if (typeof field === 'string' && bigintFields.has(key)) {
      if (!integerText.test(field)) throw new SyntaxError(`field ${key} holds "${field}", not an integer`);
      record[key] = BigInt(field);
    } else if (Array.isArray(field) && bigintFields.has(key)) {
      // A list of amounts (seconds contracts' preset stakes): its strings are amounts too, and so are the
      // strings of the lists nested in it (the log's rows of [user id, amounts]).
      amountList(field, key, bigintFields);
    } else if (typeof field === 'object' && field !== null) {
      record[key] = fromJsonValue(field, bigintFields);
    }
  }
  return record;
}

/** Decodes a list held by a bigint field: every string in it and in lists nested in it is an amount. */
function amountList(list: unknown[], key: string, bigintFields: ReadonlySet<string>): void {
  for (let index = 0; index < list.length; index += 1) {
    const item: unknown = list[index];
    if (typeof item === 'string') {
      if (!integerText.test(item)) throw new SyntaxError(`field ${key} holds "${item}", not an integer`);
      list[index] = BigInt(item);
    } else if (Array.isArray(item)) amountList(item, key, bigintFields);
    else list[index] = fromJsonValue(item, bigintFields);
  }
}
