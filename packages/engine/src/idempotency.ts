import type { Command } from './commands.ts';
import { ownerKeyOf } from './ledger/accounts.ts';

/** What a repeated key gets back: the first outcome's reply (only successful outcomes are kept). */
export type StoredOutcome = { timeMs: number; seq: number; commandType: string; reply: unknown };

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
    case 'systemFund':
      owner = command.owner;
      break;
    default:
      return `admin:${key}`;
  }
  return `${ownerKeyOf(owner)}:${key}`;
}
