import { toJsonValue } from './codec.ts';
import type { Command } from './commands.ts';
import { sha256HexOfText } from './hash/sha256.ts';
import { ownerKeyOf } from './ledger/accounts.ts';

/**
 * What a repeated key gets back: the first outcome's reply (only successful outcomes are kept), and the
 * fingerprint of the command that used the key, so that the key reused with other parameters is refused.
 * A key restored from a snapshot written before fingerprints were kept has none: it is compared by command
 * type alone, as it was then.
 */
export type StoredOutcome = {
  timeMs: number;
  seq: number;
  commandType: string;
  reply: unknown;
  fingerprint?: string;
};

/** Hex digits of the SHA-256 kept per key: 128 bits, plenty to tell two requests apart. */
const FINGERPRINT_HEX_DIGITS = 32;

/**
 * The fingerprint of a command: the SHA-256 of its canonical JSON (object fields sorted by name, bigints as
 * decimal text, absent fields left out), so the same request gives the same fingerprint however its fields
 * were ordered, and any other value of any field (side, market, kind, price, quantity, amount, memo...)
 * gives another.
 */
export function commandFingerprint(command: Command): string {
  return sha256HexOfText(JSON.stringify(sortedFields(toJsonValue(command)))).slice(0, FINGERPRINT_HEX_DIGITS);
}

function sortedFields(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(sortedFields);
  const record = value as Record<string, unknown>;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) sorted[key] = sortedFields(record[key]);
  return sorted;
}

/** Whether a command is the same request as the one a stored key was first used for. */
export function sameRequest(stored: StoredOutcome, command: Command, fingerprint: string): boolean {
  if (stored.commandType !== command.type) return false;
  return stored.fingerprint === undefined || stored.fingerprint === fingerprint;
}

/**
 * Idempotency keys of successful commands, oldest first. A key is remembered for `windowMs` of command time
 * and at most `maxKeys` keys are kept; both limits evict the oldest keys first, so eviction depends only on
 * the commands and is the same on every replica. Refused commands are not remembered: they changed nothing,
 * so a retry with the same key after, say, a deposit may succeed.
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, StoredOutcome>();
  private readonly windowMs: number;
  private readonly maxKeys: number;

  constructor(windowMs: number, maxKeys: number) {
    this.windowMs = windowMs;
    this.maxKeys = maxKeys;
  }

  get size(): number {
    return this.entries.size;
  }

  evictExpired(nowMs: number): void {
    if (this.entries.size === 0) return;
    const oldestAllowedMs = nowMs - this.windowMs;
    for (const [key, entry] of this.entries) {
      if (entry.timeMs > oldestAllowedMs) return;
      this.entries.delete(key);
    }
  }

  get(scopedKey: string): StoredOutcome | undefined {
    return this.entries.get(scopedKey);
  }

  remember(scopedKey: string, outcome: StoredOutcome): void {
    if (this.entries.size >= this.maxKeys) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(scopedKey, outcome);
  }

  forEach(visit: (scopedKey: string, outcome: StoredOutcome) => void): void {
    for (const [key, entry] of this.entries) visit(key, entry);
  }
}

/**
 * Keys are scoped to the owner a command acts for (a user, or a system owner); configuration and
 * administrator commands share one scope. The scope holds no colon, so scope and key never run together.
 */
export function scopedIdempotencyKey(command: Command, key: string): string {
  let owner: unknown;
  switch (command.type) {
    case 'deposit':
    case 'transfer':
    case 'requestWithdrawal':
    case 'flashExchange':
      owner = command.userId;
      break;
    case 'placeOrder':
    case 'cancelOrder':
    case 'cancelAllOrders':
    case 'systemFund':
      owner = command.owner;
      break;
    default:
      return `admin:${key}`;
  }
  return `${ownerKeyOf(owner)}:${key}`;
}
