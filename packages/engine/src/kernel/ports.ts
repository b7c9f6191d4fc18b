// The one way an area reads another. The reading area declares what it needs as a port: a name and a small
// queries type, in its own `expected.ts` (as a dYdX module declares its `expected_keepers.go`), and never
// imports the other area. The composition (PORTS in areas.ts) binds each port to the area that answers it,
// and the compiler checks there that the answering queries have the declared shape.
import { invariant } from '../invariant.ts';

/** A read an area needs from another: `Q` is the queries type it declares. */
export type Port<Q> = {
  readonly name: string;
  /** An optional port reads as undefined when no installed area answers it (an engine without that area). */
  readonly optional: boolean;
  /** Never set: carries `Q` for the compiler. */
  readonly reads?: Q;
};

/** Declares a port (in the reading area's `expected.ts`). */
export function port<Q>(name: string): Port<Q> {
  return { name, optional: false };
}

/** Declares a port that an engine may leave unanswered: it reads as undefined then. */
export function optionalPort<Q>(name: string): Port<Q | undefined> {
  return { name, optional: true };
}

/** A port bound to what answers it, given every installed area's queries by name. */
export type PortBinding<E> = { readonly name: string; provide(engine: E): unknown };

/** Binds a port (in areas.ts): `provide` returns the answering area's queries, or a part of them. */
export function bind<Q, E>(target: Port<Q>, provide: (engine: E) => Q | undefined): PortBinding<E> {
  return { name: target.name, provide };
}

/** The ports of one engine: resolved on first use, once every area's queries exist. */
export class PortTable {
  private readonly bindings = new Map<string, PortBinding<never>>();
  private readonly resolved = new Map<string, unknown>();
  private readonly engine: () => unknown;

  constructor(bindings: readonly PortBinding<never>[], engine: () => unknown) {
    for (const binding of bindings) {
      invariant(!this.bindings.has(binding.name), `port ${binding.name} is bound twice`);
      this.bindings.set(binding.name, binding);
    }
    this.engine = engine;
  }

  read<Q>(target: Port<Q>): Q {
    if (this.resolved.has(target.name)) return this.resolved.get(target.name) as Q;
    const binding = this.bindings.get(target.name);
    const value = binding?.provide(this.engine() as never);
    invariant(value !== undefined || target.optional, `port ${target.name} is answered by no installed area`);
    this.resolved.set(target.name, value);
    return value as Q;
  }
}
