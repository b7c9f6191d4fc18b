// The one way areas read each other (kernel/ports.ts): a port reads what the composition bound it to, a
// required port nobody answers is an invariant violation, an optional one reads as undefined.
import { describe, expect, it } from 'vitest';
import { EngineInvariantError } from '../src/index.ts';
import { PortTable, bind, optionalPort, port } from '../src/kernel/ports.ts';

type Engine = { spot?: { hasMarket(marketId: number): boolean } };
const PAIRS = port<{ hasMarket(marketId: number): boolean }>('test.pairs');
const MARKS = optionalPort<{ markTicks: number }>('test.marks');

describe('ports', () => {
  const spot = { hasMarket: (marketId: number) => marketId === 1 };

  it('reads what the composition bound the port to', () => {
    const table = new PortTable([bind(PAIRS, (engine: Engine) => engine.spot)], () => ({ spot }));
    expect(table.read(PAIRS).hasMarket(1)).toBe(true);
    expect(table.read(PAIRS)).toBe(spot);
  });

  it('refuses a required port no installed area answers, and reads an optional one as undefined', () => {
    const table = new PortTable([bind(PAIRS, (engine: Engine) => engine.spot)], () => ({}));
    expect(() => table.read(PAIRS)).toThrow(EngineInvariantError);
    expect(table.read(MARKS)).toBeUndefined();
  });

  it('refuses a port bound twice', () => {
    const twice = [
      bind(PAIRS, (engine: Engine) => engine.spot),
      bind(PAIRS, (engine: Engine) => engine.spot),
    ];
    expect(() => new PortTable(twice, () => ({ spot }))).toThrow(EngineInvariantError);
  });
});
