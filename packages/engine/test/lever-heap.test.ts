// The price-indexed trigger heaps against a plain list: after random pushes, kills and mark crossings
// (enough kills to force compactions), each crossing takes exactly the live triggers a scan of the list
// finds, for both directions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Trigger, TriggerHeap } from '../src/lever/heap.ts';

type Step =
  { kind: 'push'; price: number } | { kind: 'kill'; pick: number } | { kind: 'cross'; mark: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('push' as const), price: fc.integer({ min: 1, max: 500 }) }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('kill' as const), pick: fc.nat(10_000) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('cross' as const), mark: fc.integer({ min: 1, max: 500 }) }),
  },
);

describe('trigger heaps', () => {
  for (const below of [true, false])
    it(`take exactly the crossed live triggers (${below ? 'at or below' : 'at or above'})`, () => {
      fc.assert(
        fc.property(fc.array(step, { minLength: 1, maxLength: 4_000 }), (steps) => {
          const heap = new TriggerHeap<number>(below);
          const live: Trigger<number>[] = [];
          let id = 0;
          for (const s of steps) {
            if (s.kind === 'push') {
              const trigger = new Trigger('stop', s.price, below, (id += 1));
              heap.push(trigger);
              live.push(trigger);
            } else if (s.kind === 'kill') {
              if (live.length === 0) continue;
              const [trigger] = live.splice(s.pick % live.length, 1);
              heap.kill(trigger as Trigger<number>);
            } else {
              const crossed = (t: Trigger<number>) =>
                below ? s.mark <= t.priceTicks : s.mark >= t.priceTicks;
              const expected = live
                .filter(crossed)
                .map((t) => t.target)
                .sort((a, b) => a - b);
              const taken: Trigger<number>[] = [];
              heap.takeCrossed(s.mark, taken);
              expect(taken.map((t) => t.target).sort((a, b) => a - b)).toEqual(expected);
              for (let index = live.length - 1; index >= 0; index -= 1)
                if (crossed(live[index] as Trigger<number>)) live.splice(index, 1);
            }
            expect(heap.size).toBe(live.length);
          }
        }),
        { numRuns: 40 },
      );
    }, 60_000);

  it('compacts when the dead outnumber the live, and keeps every live trigger', () => {
    const heap = new TriggerHeap<number>(true);
    const triggers = Array.from(
      { length: 3_000 },
      (_, index) => new Trigger('entry', index + 1, true, index + 1),
    );
    for (const trigger of triggers) heap.push(trigger);
    for (const trigger of triggers) if (trigger.priceTicks % 3 !== 0) heap.kill(trigger);
    expect(heap.size).toBe(1_000);
    const taken: Trigger<number>[] = [];
    heap.takeCrossed(2_701, taken);
    expect(taken.map((t) => t.target)).toEqual(Array.from({ length: 100 }, (_, index) => 3_000 - 3 * index));
    expect(heap.size).toBe(900);
  });
});
