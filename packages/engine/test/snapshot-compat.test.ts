// Snapshots written before a change of the engine's code must still load, to the same state and hash. The
// fixtures were written by the engine as it was before trading pairs had their own folder and the market
// data folder became `prices/`: a spot simulation (seed 7, 20,000 commands: three books with resting
// orders) and the lever simulation at its midpoint (index prices, price chains, lever records). Each loads
// to the state hash recorded beside it, and writes back the very same text.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/index.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8').trim();

describe.each(['spot', 'lever-mid'])('the %s snapshot written by the earlier engine', (name) => {
  const text = fixture(`${name}.snapshot.json`);
  const hash = fixture(`${name}.hash`);

  it.each(['fast', 'reference'] as const)('loads on the %s book to the recorded state hash', (book) => {
    const engine = Engine.restore(text, { book });
    expect(engine.stateHash()).toBe(hash);
    engine.checkInvariants();
  });

  it('writes back the same text', () => {
    expect(Engine.restore(text).snapshot()).toBe(text);
  });
});
