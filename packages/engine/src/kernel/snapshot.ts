import { invariant } from '../invariant.ts';
import { ownerKeyOf, walletIndexOf } from '../ledger/accounts.ts';
import type { AccountOwner, Wallet } from '../ledger/accounts.ts';
import { Hold } from '../ledger/holds.ts';
import type { BookImplementation, EngineOptions } from '../state.ts';
import type { AnyArea, SnapshotSections } from './area.ts';
import { fromJsonValue, toJsonValue } from './json.ts';
import { Kernel, SNAPSHOT_KERNEL_KEYS } from './kernel.ts';
import type { PortBinding } from './ports.ts';

export const SNAPSHOT_FORMAT = 'fairex-engine-snapshot';
export const SNAPSHOT_VERSION = 1;

/**
 * The top-level keys of snapshot version 1 in their order. The kernel lays them out first (a key an area
 * does not write stays out), so the text of a state is what it was before the areas existed; sections of
 * later areas follow in the order of the area list, then the `holds` section.
 */
const VERSION_1_SECTIONS = [
  'currencies',
  'markets',
  'accounts',
  'withdrawals',
  'idempotency',
  'indexPrices',
  'priceChains',
] as const;

/** Idempotency keys, oldest first; the sixth field, the request's fingerprint, only when the key has one. */
type IdempotencyRow =
  | [scopedKey: string, timeMs: number, seq: number, commandType: string, reply: unknown]
  | [
      scopedKey: string,
      timeMs: number,
      seq: number,
      commandType: string,
      reply: unknown,
      fingerprint: string,
    ];

/** A hold no area rebuilds from its own rows, by area and reference. */
type HoldRow = [
  area: string,
  ref: number,
  owner: AccountOwner,
  wallet: Wallet,
  currencyId: number,
  amount: string,
  reason: number,
  expiresAtMs: number | null,
];

/**
 * The whole state as canonical JSON text: every collection in a fixed order (ids ascending, book sides in
 * priority order, idempotency keys oldest first) and accounts with a zero balance left out, so equal states
 * give byte-equal text whatever path led to them. The state hash is the SHA-256 of this text.
 */
export function writeSnapshot(kernel: Kernel): string {
  const document: SnapshotSections = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    lastSeq: kernel.lastSeq,
    timeMs: kernel.timeMs,
    options: { ...kernel.options },
    counters: undefined,
  };
  for (const key of VERSION_1_SECTIONS) document[key] = undefined;
  const counters = kernel.counters.write();
  counters.nextTransferId = kernel.ledger.nextTransferId;
  document.counters = counters;
  for (const { area, state } of kernel.areas) {
    const sections = area.writeSnapshot?.(state);
    if (sections === undefined) continue;
    const declared = area.sections ?? [area.name];
    for (const [key, value] of Object.entries(sections)) {
      invariant(declared.includes(key), `area ${area.name} writes the undeclared snapshot section ${key}`);
      if (value !== undefined) document[key] = value;
    }
  }
  const idempotency: IdempotencyRow[] = [];
  kernel.idempotency.forEach((scopedKey, entry) => {
    const row = [
      scopedKey,
      entry.timeMs,
      entry.seq,
      entry.commandType,
      toJsonValue(entry.reply) ?? null,
    ] as const;
    idempotency.push(entry.fingerprint === undefined ? [...row] : [...row, entry.fingerprint]);
  });
  document.idempotency = idempotency;
  const holds = holdRows(kernel);
  if (holds.length > 0) document.holds = holds;
  return JSON.stringify(document);
}

function holdRows(kernel: Kernel): HoldRow[] {
  const rebuilt = new Set(
    kernel.areas
      .filter(({ area }) => area.rebuildsHolds === true)
      .flatMap(({ area }) => [area.name, ...(area.holdOwners ?? [])]),
  );
  const rows: HoldRow[] = [];
  kernel.ledger.holds.forEach((hold) => {
    if (rebuilt.has(hold.area)) return;
    const { account } = hold;
    rows.push([
      hold.area,
      hold.ref,
      account.owner,
      account.wallet,
      account.currencyId,
      hold.amount.toString(),
      hold.reason,
      hold.expiresAtMs ?? null,
    ]);
  });
  return rows.sort(([areaA, refA], [areaB, refB]) =>
    areaA === areaB ? refA - refB : areaA < areaB ? -1 : 1,
  );
}

/** Rebuilds a kernel and its areas from snapshot text. Throws on text that is not a snapshot of this version. */
export function readSnapshot(
  text: string,
  areas: readonly AnyArea[],
  bookImplementation: BookImplementation,
  ports: readonly PortBinding<never>[] = [],
): Kernel {
  const document = JSON.parse(text) as SnapshotSections & {
    options: EngineOptions;
    lastSeq: number;
    timeMs: number;
    counters: Record<string, number>;
    idempotency: IdempotencyRow[];
    holds?: HoldRow[];
  };
  if (document.format !== SNAPSHOT_FORMAT || document.version !== SNAPSHOT_VERSION) {
    throw new Error(`not a ${SNAPSHOT_FORMAT} version ${SNAPSHOT_VERSION}`);
  }
  const kernel = new Kernel(areas, { ...document.options }, bookImplementation, ports);
  for (const key of Object.keys(document)) {
    if (!SNAPSHOT_KERNEL_KEYS.has(key) && !kernel.sectionOwners.has(key))
      throw new Error(`snapshot section ${key} belongs to no installed area`);
  }
  kernel.lastSeq = document.lastSeq;
  kernel.timeMs = document.timeMs;
  const { nextTransferId, ...counters } = document.counters;
  kernel.ledger.nextTransferId = nextTransferId as number;
  kernel.counters.read(counters);
  // Holds no area rebuilds come first, so that their areas find them (Ledger.holdsOf) when restoring.
  for (const [area, ref, owner, wallet, currencyId, amount, reason, expiresAtMs] of document.holds ?? []) {
    const ownerKey = ownerKeyOf(owner);
    const walletIndex = walletIndexOf(wallet);
    invariant(ownerKey !== 0 && walletIndex >= 0, `snapshot hold ${area}/${ref} names no account`);
    const account = kernel.ledger.account(ownerKey, walletIndex, currencyId);
    kernel.ledger.restoreHold(new Hold(area, ref, account, BigInt(amount), reason, expiresAtMs ?? undefined));
  }
  for (const { area, state } of kernel.areas) area.readSnapshot?.(state, document);
  for (const [scopedKey, timeMs, seq, commandType, reply, fingerprint] of document.idempotency) {
    kernel.idempotency.remember(scopedKey, {
      timeMs,
      seq,
      commandType,
      reply: fromJsonValue(reply ?? undefined, kernel.bigintFields),
      ...(fingerprint === undefined ? {} : { fingerprint }),
    });
  }
  return kernel;
}
