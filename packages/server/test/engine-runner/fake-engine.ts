// A tiny deterministic engine with the runner's engine surface: named accounts holding integer balances,
// deposits from an outside account, transfers that are refused when funds are short, idempotency keys, and
// a command that throws (an engine bug) to test how the runner stops. Just enough to test the runner
// without the real engine.
import { createHash } from 'node:crypto';
import type {
  EngineKit,
  RunnerEngine,
  RunnerEnvelope,
  RunnerOutcome,
} from '../../src/engine-runner/types.ts';

export type FakeCommand =
  | { type: 'deposit'; account: string; amount: string }
  | { type: 'transfer'; from: string; to: string; amount: string }
  | { type: 'explode' };

export type FakeEvent = { type: 'balanceChanged'; account: string; before: bigint; after: bigint };

export const FAKE_REFUSED = 2000;

export class FakeEngine implements RunnerEngine<FakeCommand, FakeEvent> {
  balances = new Map<string, bigint>();
  outcomesByKey = new Map<string, RunnerOutcome<FakeEvent>>();
  private seq = 0;

  get lastSeq(): number {
    return this.seq;
  }

  apply(envelope: RunnerEnvelope<FakeCommand>): RunnerOutcome<FakeEvent> {
    if (envelope.seq <= this.seq) return { seq: envelope.seq, code: 1001, events: [] };
    this.seq = envelope.seq;
    const key = envelope.idempotencyKey;
    const earlier = key === undefined ? undefined : this.outcomesByKey.get(key);
    if (earlier) return { ...earlier, seq: envelope.seq, duplicate: true };
    const outcome = this.execute(envelope);
    if (key !== undefined) this.outcomesByKey.set(key, outcome);
    return outcome;
  }

  private execute(envelope: RunnerEnvelope<FakeCommand>): RunnerOutcome<FakeEvent> {
    const command = envelope.command;
    const seq = envelope.seq;
    if (command.type === 'explode') throw new Error('fake engine bug');
    const amount = BigInt(command.amount);
    const from = command.type === 'deposit' ? 'outside' : command.from;
    const to = command.type === 'deposit' ? command.account : command.to;
    if (amount <= 0n) return { seq, code: 1009, events: [] };
    if (from !== 'outside' && this.balance(from) < amount) return { seq, code: FAKE_REFUSED, events: [] };
    const events = [this.move(from, -amount), this.move(to, amount)];
    return { seq, code: 0, events, reply: { balance: this.balance(to) } };
  }

  balance(account: string): bigint {
    return this.balances.get(account) ?? 0n;
  }

  private move(account: string, delta: bigint): FakeEvent {
    const before = this.balance(account);
    this.balances.set(account, before + delta);
    return { type: 'balanceChanged', account, before, after: before + delta };
  }

  snapshot(): string {
    return JSON.stringify({
      seq: this.seq,
      balances: [...this.balances].map(([account, amount]) => [account, amount.toString()]),
      keys: [...this.outcomesByKey].map(([key, outcome]) => [key, encodeOutcome(outcome)]),
    });
  }

  static restore(text: string): FakeEngine {
    const data = JSON.parse(text) as { seq: number; balances: [string, string][]; keys: [string, string][] };
    const engine = new FakeEngine();
    engine.seq = data.seq;
    for (const [account, amount] of data.balances) engine.balances.set(account, BigInt(amount));
    for (const [key, outcome] of data.keys) engine.outcomesByKey.set(key, decodeOutcome(outcome));
    return engine;
  }

  stateHash(): string {
    const sorted = [...this.balances].sort(([a], [b]) => (a < b ? -1 : 1));
    const keys = [...this.outcomesByKey.keys()].sort();
    const text = JSON.stringify([this.seq, sorted.map(([a, v]) => [a, v.toString()]), keys]);
    return createHash('sha256').update(text).digest('hex');
  }

  checkInvariants(): void {
    let sum = 0n;
    for (const [account, amount] of this.balances) {
      if (amount < 0n && account !== 'outside') throw new Error(`${account} is negative`);
      sum += amount;
    }
    if (sum !== 0n) throw new Error(`balances sum to ${sum}`);
  }
}

function encodeOutcome(outcome: RunnerOutcome<FakeEvent>): string {
  return JSON.stringify(outcome, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
}

function decodeOutcome(text: string): RunnerOutcome<FakeEvent> {
  return JSON.parse(text, (_key, value: unknown) =>
    typeof value === 'string' && /^-?\d+n$/.test(value) ? BigInt(value.slice(0, -1)) : value,
  ) as RunnerOutcome<FakeEvent>;
}

export const fakeKit: EngineKit<FakeCommand, FakeEvent, FakeEngine> = {
  create: () => new FakeEngine(),
  restore: (text) => FakeEngine.restore(text),
  encodeEnvelope: (envelope) => JSON.stringify(envelope),
  decodeEnvelope: (text) => JSON.parse(text) as RunnerEnvelope<FakeCommand>,
};
