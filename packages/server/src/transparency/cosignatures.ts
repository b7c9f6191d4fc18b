// Witnesses' cosignatures (C2SP tlog-cosignature v1, docs/transparency.md "Witnesses"): a witness POSTs a
// checkpoint note carrying its cosignature line; it is accepted only when the witness is one the operator
// listed (LOG_WITNESSES), the note's body is exactly a checkpoint the log published, and the line verifies.
// The accepted line is stored once per checkpoint and witness and served with the checkpoint.
import type { Queryable } from '../store/index.ts';
import type { VerifierKey } from './note.ts';
import { parseCheckpointBody, parseNote, verifiedCosignature } from './note.ts';
import type { LogReads } from './proofs.ts';

export type CosignatureResult =
  { kind: 'accepted'; size: number; witness: string } | { kind: 'refused'; reason: string };

export async function acceptCosignature(
  db: Queryable,
  reads: LogReads,
  witnesses: readonly VerifierKey[],
  note: string,
): Promise<CosignatureResult> {
  const parsed = parseNote(note);
  if (parsed === undefined) return { kind: 'refused', reason: 'not a signed note' };
  const checkpoint = parseCheckpointBody(parsed.body);
  if (checkpoint === undefined) return { kind: 'refused', reason: 'not a checkpoint' };
  const stored = await reads.checkpoint(checkpoint.size);
  if (stored === undefined || parseNote(stored.note)?.body !== parsed.body)
    return { kind: 'refused', reason: 'not a checkpoint this log published' };
  for (const witness of witnesses) {
    const cosignature = verifiedCosignature(note, witness);
    if (cosignature === undefined) continue;
    await db.query(
      `insert into log_cosignatures (size, witness, line) values ($1, $2, $3)
         on conflict (size, witness) do nothing`,
      [checkpoint.size, witness.text, cosignature.line],
    );
    return { kind: 'accepted', size: checkpoint.size, witness: witness.text };
  }
  return { kind: 'refused', reason: 'no verified cosignature of an expected witness' };
}
