// The price-indexed triggers of one market: two binary heaps with lazy deletion. `below` holds triggers
// that fire when the mark is at or below their price (a max-heap: the highest price fires first), `above`
// those that fire at or above theirs (a min-heap). A mark update pops exactly the triggers it crosses, each
// in O(log n), so its cost follows what it triggers, not how many positions are open; a trigger replaced or
// withdrawn is marked dead and skipped when it surfaces, and the heap is rebuilt from its live triggers when
// the dead outnumber them.

/** What a trigger stands for: a limit entry, a stop of a holding, or a user's liquidation in this pair. */
export type TriggerKind = 'entry' | 'stop' | 'liquidation';

export class Trigger<T> {
  live = true;
  readonly kind: TriggerKind;
  readonly priceTicks: number;
  /** Fires at or below the price (true) or at or above it. */
  readonly below: boolean;
  readonly target: T;

  constructor(kind: TriggerKind, priceTicks: number, below: boolean, target: T) {
    this.kind = kind;
    this.priceTicks = priceTicks;
    this.below = below;
    this.target = target;
  }
}

export class TriggerHeap<T> {
  private items: Trigger<T>[] = [];
  private dead = 0;
  /** true: fires at or below (max-heap); false: fires at or above (min-heap). */
  private readonly below: boolean;

  constructor(below: boolean) {
    this.below = below;
  }

  get size(): number {
    return this.items.length - this.dead;
  }

  push(trigger: Trigger<T>): void {
    const items = this.items;
    items.push(trigger);
    this.siftUp(items.length - 1);
  }

  /** Marks a trigger dead; it leaves the heap when it surfaces or at the next compaction. */
  kill(trigger: Trigger<T>): void {
    if (!trigger.live) return;
    trigger.live = false;
    this.dead += 1;
    if (this.dead > 1024 && this.dead * 2 > this.items.length) this.compact();
  }

  /** Takes every live trigger the mark crosses (in heap order; callers sort what they act on). */
  takeCrossed(markTicks: number, into: Trigger<T>[]): void {
    const items = this.items;
    for (;;) {
      const top = items[0];
      if (top === undefined) return;
      if (top.live && !(this.below ? markTicks <= top.priceTicks : markTicks >= top.priceTicks)) return;
      this.pop();
      if (top.live) {
        top.live = false;
        into.push(top);
      } else {
        this.dead -= 1;
      }
    }
  }

  private before(a: Trigger<T>, b: Trigger<T>): boolean {
    return this.below ? a.priceTicks > b.priceTicks : a.priceTicks < b.priceTicks;
  }

  private pop(): void {
    const items = this.items;
    const last = items.pop() as Trigger<T>;
    if (items.length === 0) return;
    items[0] = last;
    this.siftDown(0);
  }

  private siftUp(start: number): void {
    const items = this.items;
    const item = items[start] as Trigger<T>;
    let index = start;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = items[parent] as Trigger<T>;
      if (!this.before(item, above)) break;
      items[index] = above;
      index = parent;
    }
    items[index] = item;
  }

  private siftDown(start: number): void {
    const items = this.items;
    const item = items[start] as Trigger<T>;
    let index = start;
    for (;;) {
      const left = index * 2 + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child =
        right < items.length && this.before(items[right] as Trigger<T>, items[left] as Trigger<T>)
          ? right
          : left;
      if (!this.before(items[child] as Trigger<T>, item)) break;
      items[index] = items[child] as Trigger<T>;
      index = child;
    }
    items[index] = item;
  }

  private compact(): void {
    this.items = this.items.filter((trigger) => trigger.live);
    this.dead = 0;
    for (let index = (this.items.length >> 1) - 1; index >= 0; index -= 1) this.siftDown(index);
  }
}
