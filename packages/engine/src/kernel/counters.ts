/** An id counter of an area: `next()` hands out 1, 2, 3... and the value is kept in the snapshot. */
export class Counter {
  readonly name: string;
  /** The next id to hand out. */
  value = 1;

  constructor(name: string) {
    this.name = name;
  }

  next(): number {
    return this.value++;
  }
}

/**
 * The counters written by snapshot version 1, in its order. They are always written; any other counter only
 * once it has moved from 1 (see AreaSetup.counter).
 */
export const LEGACY_COUNTERS = ['nextOrderId', 'nextTradeId', 'nextTransferId', 'nextWithdrawalId'] as const;

export class Counters {
  private readonly byName = new Map<string, Counter>();

  counter(name: string): Counter {
    if (this.byName.has(name)) throw new Error(`counter ${name} is declared twice`);
    const counter = new Counter(name);
    this.byName.set(name, counter);
    return counter;
  }

  get(name: string): Counter | undefined {
    return this.byName.get(name);
  }

  /** The snapshot's `counters` object: the legacy ones first in their order, then the others that moved. */
  write(): Record<string, number | undefined> {
    const written: Record<string, number | undefined> = {};
    for (const name of LEGACY_COUNTERS) written[name] = this.byName.get(name)?.value;
    for (const counter of this.byName.values()) {
      if (!(counter.name in written) && counter.value !== 1) written[counter.name] = counter.value;
    }
    return written;
  }

  read(counters: Readonly<Record<string, number>>): void {
    for (const [name, value] of Object.entries(counters)) {
      const counter = this.byName.get(name);
      if (counter === undefined) throw new Error(`snapshot has a counter ${name} no area declares`);
      counter.value = value;
    }
  }
}
