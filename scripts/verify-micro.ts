// `npm run verify:micro -- <base url> <proof.json>`: checks a settled seconds contract against the exchange's
// public price record. The proof is the answer of `GET /api/microtrade/proof?id=` (the order's owner saves
// it; `--token <token> --id <id>` fetches it instead). The script then uses public calls only: it reads the
// market's samples from acceptance to expiry and checks that the proof's open sample is the first sample
// strictly after acceptance and its end sample the last at or before expiry, that the chain from the open
// sample reaches a published head (each hash recomputed), and recomputes the outcome and the payout by the
// rule of docs/micro.md: rule fairex-micro-v2 compares the two samples' index price (the median of the
// sources), v1 (orders accepted before v2) their mark price. A proof of simulated prices is reported as
// such. Exits 0 when all agrees, 1 on a mismatch (naming it), 2 when it cannot read.
//
// Like scripts/verify-prices.ts, whose chain checks it reuses, it implements the documents on its own,
// with no code of the exchange.
import { readFile } from 'node:fs/promises';
import type { Head, Sample } from './verify-prices.ts';
import { VerificationError, verifyProof } from './verify-prices.ts';

export type Outcome = 'win' | 'loss' | 'draw' | 'void';

export interface ProofSample {
  seq: number;
  time: number;
  price: string | null;
  stale: boolean;
  hash: string;
}

/** The fields of a proof this script reads (see docs/micro.md, "Calls"). */
export interface MicroProof {
  id: number;
  symbol: string;
  rule_version: string;
  /** Absent on proofs served before v2: then the rule version decides. */
  settles_on?: 'index' | 'mark';
  simulated_prices?: boolean;
  type: 1 | 2;
  number: string;
  profit_ratio: string;
  fee: string;
  accepted_time: number;
  expiry_time: number;
  max_sample_age_ms: number;
  outcome: Outcome;
  payout: string;
  fee_refund: string;
  open: ProofSample | null;
  end: ProofSample | null;
  proof: { head: Head; samples: Sample[] } | null;
}

/** Decimal text as an integer at `scale` decimals ("1.5" at 2 is 150n); null when it is not one. */
function units(text: string, scale: number): bigint | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > scale) return null;
  return BigInt(match[1] + fraction.padEnd(scale, '0'));
}

function decimals(text: string): number {
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

function format(value: bigint, scale: number): string {
  if (scale === 0) return value.toString();
  const text = value.toString().padStart(scale + 1, '0');
  return `${text.slice(0, -scale)}.${text.slice(-scale)}`;
}

export const RULE_V1 = 'fairex-micro-v1';
export const RULE_V2 = 'fairex-micro-v2';

/** The sample field a rule compares: v2 the index price, v1 the mark price. */
export function settlementField(ruleVersion: string): 'index_price' | 'mark_price' {
  return ruleVersion === RULE_V1 ? 'mark_price' : 'index_price';
}

/**
 * The rule `fairex-micro-v2` (or `fairex-micro-v1` with `field` 'mark_price') applied to a market's samples
 * (oldest first, covering at least the time from acceptance to expiry): the open and end samples it picks,
 * the outcome and what returns to the user.
 */
export function recomputeMicro(
  order: Pick<
    MicroProof,
    'type' | 'number' | 'profit_ratio' | 'fee' | 'accepted_time' | 'expiry_time' | 'max_sample_age_ms'
  >,
  samples: readonly Sample[],
  field: 'index_price' | 'mark_price' = 'index_price',
): { open: Sample | null; end: Sample | null; outcome: Outcome; payout: string; feeRefund: string } {
  const scale = decimals(order.number);
  const stake = units(order.number, scale) ?? 0n;
  const ratio = units(order.profit_ratio, 2) ?? 0n; // basis points
  const open = samples.find((sample) => sample.time > order.accepted_time) ?? null;
  let end: Sample | null = null;
  for (const sample of samples) if (sample.time <= order.expiry_time) end = sample;
  const good = (sample: Sample | null): sample is Sample =>
    sample !== null && !sample.stale && sample[field] !== null;
  const voided = { open, end, outcome: 'void' as const, payout: order.number, feeRefund: order.fee };
  if (
    !good(open) ||
    open.time > order.expiry_time ||
    open.time - order.accepted_time > order.max_sample_age_ms
  )
    return voided;
  if (!good(end) || end.seq < open.seq || order.expiry_time - end.time > order.max_sample_age_ms)
    return voided;
  const priceScale = Math.max(decimals(open[field] as string), decimals(end[field] as string));
  const openPrice = units(open[field] as string, priceScale) as bigint;
  const endPrice = units(end[field] as string, priceScale) as bigint;
  const zero = format(0n, decimals(order.fee));
  if (openPrice === endPrice) return { open, end, outcome: 'draw', payout: order.number, feeRefund: zero };
  if (endPrice > openPrice === (order.type === 1))
    return {
      open,
      end,
      outcome: 'win',
      payout: format(stake + (stake * ratio) / 10_000n, scale),
      feeRefund: zero,
    };
  return { open, end, outcome: 'loss', payout: format(0n, scale), feeRefund: zero };
}

/** Checks a proof against the market's samples as the public call serves them; throws on the first mismatch. */
export function checkMicroProof(proof: MicroProof, samples: readonly Sample[]): string {
  const where = `order ${proof.id}`;
  if (proof.rule_version !== RULE_V1 && proof.rule_version !== RULE_V2)
    throw new VerificationError(`${where}: unknown rule version ${proof.rule_version}`);
  const field = settlementField(proof.rule_version);
  if (proof.settles_on !== undefined && proof.settles_on !== (field === 'index_price' ? 'index' : 'mark'))
    throw new VerificationError(
      `${where}: rule ${proof.rule_version} does not settle on the ${proof.settles_on}`,
    );
  const mine = recomputeMicro(proof, samples, field);
  const same = (a: ProofSample | null, b: Sample | null) =>
    (a === null && b === null) ||
    (a !== null &&
      b !== null &&
      a.seq === b.seq &&
      a.time === b.time &&
      a.hash === b.hash &&
      a.price === b[field]);
  if (
    !same(proof.open, mine.open) &&
    !(proof.outcome === 'void' && proof.open === null && mine.outcome === 'void')
  )
    throw new VerificationError(`${where}: the open sample is not the first sample after acceptance`);
  if (proof.outcome !== 'void' && !same(proof.end, mine.end))
    throw new VerificationError(`${where}: the end sample is not the last sample at or before expiry`);
  if (mine.outcome !== proof.outcome)
    throw new VerificationError(`${where}: outcome ${proof.outcome}, the rule gives ${mine.outcome}`);
  if (mine.payout !== proof.payout)
    throw new VerificationError(`${where}: payout ${proof.payout}, the rule gives ${mine.payout}`);
  if (mine.outcome === 'void' && proof.fee_refund !== proof.fee)
    throw new VerificationError(`${where}: a void must refund the fee`);
  if (proof.proof !== null && proof.open !== null) {
    const first = samples.find((sample) => sample.seq === proof.open?.seq);
    verifyProof(proof.proof, proof.open.seq, first);
    if (
      proof.end !== null &&
      !proof.proof.samples.some((s) => s.seq === proof.end?.seq && s.hash === proof.end.hash)
    )
      throw new VerificationError(`${where}: the end sample is not in the chain to the head`);
  }
  const simulated = samples.some((sample) => sample.sources.some((source) => source.name === 'simulated'));
  return `${where}: ${proof.outcome}, returned ${proof.payout}${simulated ? ' (simulated prices, demo)' : ''}`;
}

type Fetch = (
  url: string,
  init?: { headers?: Record<string, string> },
) => Promise<{ json(): Promise<unknown> }>;

class ReadError extends Error {}

async function call<T>(
  fetcher: Fetch,
  base: string,
  path: string,
  query: Record<string, string>,
  token?: string,
) {
  const url = new URL(path, base);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  let body: unknown;
  try {
    body = await (
      await fetcher(url.toString(), token === undefined ? {} : { headers: { authorization: token } })
    ).json();
  } catch (error) {
    throw new ReadError(`${url.pathname}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const envelope = body as { type?: string; message?: unknown };
  if (envelope.type !== 'ok') throw new ReadError(`${url.pathname}: ${JSON.stringify(envelope.message)}`);
  return envelope.message as T;
}

/** Reads the samples from acceptance to expiry (and one beyond each end, where there are) and checks the proof. */
export async function verifyMicroOrder(
  base: string,
  proof: MicroProof,
  fetcher: Fetch = fetch,
): Promise<string> {
  const samples: Sample[] = [];
  let from = Math.max(0, proof.accepted_time - proof.max_sample_age_ms);
  const to = proof.expiry_time + proof.max_sample_age_ms;
  for (;;) {
    const page = await call<{ samples: Sample[] }>(fetcher, base, '/api/price/samples', {
      symbol: proof.symbol,
      from: String(from),
      to: String(to),
    });
    samples.push(...page.samples);
    const last = page.samples[page.samples.length - 1];
    if (last === undefined || page.samples.length < 600) break;
    from = last.time + 1;
  }
  return checkMicroProof(proof, samples);
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const base = args[0];
  const option = (name: string) => {
    const index = args.indexOf(name);
    return index < 0 ? undefined : args[index + 1];
  };
  if (base === undefined || !URL.canParse(base) || (args[1] === undefined && option('--id') === undefined)) {
    console.error('usage: npm run verify:micro -- <base url> <proof.json> | --token <token> --id <order id>');
    process.exit(2);
  }
  try {
    const id = option('--id');
    let order: MicroProof;
    if (id === undefined) {
      // A saved answer of the proof call: the envelope, or its message alone.
      const saved = JSON.parse(await readFile(args[1] as string, 'utf8')) as { message?: MicroProof };
      order = saved.message ?? (saved as MicroProof);
    } else order = await call<MicroProof>(fetch, base, '/api/microtrade/proof', { id }, option('--token'));
    console.log(`ok  ${await verifyMicroOrder(base, order)}`);
  } catch (error) {
    if (error instanceof VerificationError) {
      console.error(`MISMATCH  ${error.message}`);
      process.exit(1);
    }
    console.error(`cannot read: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
}
