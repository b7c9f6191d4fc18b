// The kernel's time hooks: every area's `onCommandTime` runs once per envelope whose time advances, before
// its command, in the order of the areas' list, however many areas have one (the kernel calls the first two
// through call sites of their own and the others in a loop).
import { describe, expect, it } from 'vitest';
import { AREAS, Engine, defineArea } from '../src/index.ts';
import type { AnyArea } from '../src/kernel/area.ts';

function timedArea(name: string, calls: string[]): AnyArea {
  return defineArea({
    name,
    commands: {},
    createState: () => ({}),
    queries: () => ({}),
    onCommandTime: (ctx) => {
      calls.push(`${name}@${ctx.timeMs}`);
    },
  });
}

describe('time hooks', () => {
  for (const count of [1, 2, 3, 5]) {
    for (const withProduct of [false, true]) {
      it(`runs ${count} areas' hooks once per time step, in list order${withProduct ? ', after the product areas' : ''}`, () => {
        const calls: string[] = [];
        const extra = Array.from({ length: count }, (_, index) => timedArea(`timed${index}`, calls));
        const engine = Engine.create({ areas: withProduct ? [...AREAS, ...extra] : extra });
        const names = extra.map((area) => area.name);
        const unknown = { type: 'noSuchCommand' } as never;
        engine.apply({ seq: 1, timeMs: 1_000, command: unknown });
        engine.apply({ seq: 2, timeMs: 1_000, command: unknown });
        engine.apply({ seq: 3, timeMs: 999, command: unknown });
        engine.apply({ seq: 4, timeMs: 2_000, command: unknown });
        expect(calls).toEqual([
          ...names.map((name) => `${name}@1000`),
          ...names.map((name) => `${name}@2000`),
        ]);
      });
    }
  }
});
