// The signed note format's test vectors (docs/transparency.md, "Note format"): a fixed log key from a fixed
// seed gives this body, key id, verifier key and signature line byte for byte, and a fixed witness key this
// cosignature line. The verifier of scripts/verify-prices.ts (written separately, on node:crypto alone) and
// the witness's signer (scripts/witness.ts) agree with the server's on every vector.
import { describe, expect, it } from 'vitest';
import {
  COSIGNATURE_KEY_TYPE,
  LOG_KEY_TYPE,
  checkpointBody,
  cosignatureLine,
  ed25519KeyFromSeed,
  keyId,
  parseCheckpointBody,
  parseNote,
  parseVerifierKey,
  signCheckpoint,
  verifiedCosignature,
  verifierKey,
  verifyLogSignature,
} from '../../src/transparency/note.ts';
import { ForkError, parseNoteKey, verifyCheckpointNote } from '../../../../scripts/verify-prices.ts';
import { cosign, witnessKey } from '../../../../scripts/witness.ts';

/** The seed 0x00, 0x01, ..., 0x1f. */
const LOG_SEED = Uint8Array.from({ length: 32 }, (_, index) => index);
/** 32 bytes of 0x07. */
const WITNESS_SEED = new Uint8Array(32).fill(7);
const ORIGIN = 'example.com/fairex-log';
/** SHA-256 of nothing (the empty tree's root), used here as any 32-byte root. */
const ROOT = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const WITNESS = 'witness.example/w1';

const VECTORS = {
  publicKey: '03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8',
  body: 'example.com/fairex-log\n7\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n',
  keyId: '1508a78c',
  verifierKey: 'example.com/fairex-log+1508a78c+AQOhB7/zzhC+HXDdGOdLwJln5NYwm6UNXx3chmQSVTG4',
  signatureLine:
    '\u2014 example.com/fairex-log FQinjJ7LQ4mNGVCxmevG+WwRYgkdcrmF1KlkkkAzitTCdmNo+ch8u4k/IRI0n1sudQDyhzohhqfitTz8CBDvBQ1sIAw=\n',
  witnessVerifierKey: 'witness.example/w1+aa4a09d1+BOpKbGPinFIKvvVQexMuxfmVR3auvr57kkIe6mkURtIs',
  /** Cosigned at 1,700,000,000 (unix seconds). */
  cosignatureLine:
    '\u2014 witness.example/w1 qkoJ0QAAAABlU/EAj0jWwHHiQXHEO/rbBPkjqmAtg3rWGcGW2KCW4RrZbAK0Vy7yJAp+lrXaETg1N6Ho7xBZB5ATmhonN+To7luLBg==\n',
};

describe('the checkpoint note', () => {
  const key = ed25519KeyFromSeed(LOG_SEED);

  it('is signed exactly as the vectors say', () => {
    expect(key.publicKey.toString('hex')).toBe(VECTORS.publicKey);
    const body = checkpointBody(ORIGIN, 7, ROOT);
    expect(body).toBe(VECTORS.body);
    expect(keyId(ORIGIN, LOG_KEY_TYPE, key.publicKey).toString('hex')).toBe(VECTORS.keyId);
    expect(verifierKey(ORIGIN, LOG_KEY_TYPE, key.publicKey)).toBe(VECTORS.verifierKey);
    expect(signCheckpoint(body, ORIGIN, key)).toBe(`${VECTORS.body}\n${VECTORS.signatureLine}`);
    // Ed25519 is deterministic: signing again gives the same bytes (replay reproduces every note).
    expect(signCheckpoint(body, ORIGIN, ed25519KeyFromSeed(LOG_SEED))).toBe(
      signCheckpoint(body, ORIGIN, key),
    );
  });

  it('verifies with the server and with the independent verifier, and not once changed', () => {
    const note = `${VECTORS.body}\n${VECTORS.signatureLine}`;
    const parsedKey = parseVerifierKey(VECTORS.verifierKey);
    expect(parsedKey).toBeDefined();
    expect(verifyLogSignature(note, parsedKey!)).toBe(true);
    expect(parseCheckpointBody(parseNote(note)!.body)).toEqual({
      origin: ORIGIN,
      size: 7,
      root: Buffer.from(ROOT, 'hex'),
    });
    const cli = verifyCheckpointNote(note, parseNoteKey(VECTORS.verifierKey));
    expect(cli).toMatchObject({ origin: ORIGIN, size: 7, body: VECTORS.body });
    expect(cli.root.toString('hex')).toBe(ROOT);
    // One more entry claimed, same signature: both refuse.
    const changed = note.replace('\n7\n', '\n8\n');
    expect(verifyLogSignature(changed, parsedKey!)).toBe(false);
    expect(() => verifyCheckpointNote(changed, parseNoteKey(VECTORS.verifierKey))).toThrow(ForkError);
    // Another key of the same name: refused.
    const other = ed25519KeyFromSeed(new Uint8Array(32).fill(1));
    const otherKey = parseVerifierKey(verifierKey(ORIGIN, LOG_KEY_TYPE, other.publicKey))!;
    expect(verifyLogSignature(note, otherKey)).toBe(false);
    expect(verifyLogSignature(signCheckpoint(VECTORS.body, ORIGIN, other), otherKey)).toBe(true);
  });

  it('refuses malformed verifier keys and notes', () => {
    expect(
      parseVerifierKey('example.com/fairex-log+00000000+AQOhB7/zzhC+HXDdGOdLwJln5NYwm6UNXx3chmQSVTG4'),
    ).toBe(undefined);
    expect(parseVerifierKey('no key')).toBe(undefined);
    expect(() => parseNoteKey('example.com+1508a78c+AQ==')).toThrow();
    expect(parseNote(VECTORS.body)).toBe(undefined);
    expect(parseNote(`${VECTORS.body}\nnot a line\n`)).toBe(undefined);
    expect(parseCheckpointBody('origin\n07\nAA==\n')).toBe(undefined);
  });
});

describe('the witness cosignature', () => {
  it('is signed exactly as the vectors say, by the witness script and the server alike', () => {
    const serverSide = ed25519KeyFromSeed(WITNESS_SEED);
    expect(verifierKey(WITNESS, COSIGNATURE_KEY_TYPE, serverSide.publicKey)).toBe(VECTORS.witnessVerifierKey);
    expect(cosignatureLine(VECTORS.body, WITNESS, serverSide, 1_700_000_000n)).toBe(VECTORS.cosignatureLine);
    const script = witnessKey(WITNESS, WITNESS_SEED);
    expect(script.verifierKey).toBe(VECTORS.witnessVerifierKey);
    expect(cosign(script, VECTORS.body, 1_700_000_000n)).toBe(VECTORS.cosignatureLine);
  });

  it('verifies over the body it cosigned only', () => {
    const witness = parseVerifierKey(VECTORS.witnessVerifierKey)!;
    const note = `${VECTORS.body}\n${VECTORS.signatureLine}${VECTORS.cosignatureLine}`;
    expect(verifiedCosignature(note, witness)).toEqual({
      line: VECTORS.cosignatureLine,
      timeSeconds: 1_700_000_000n,
    });
    expect(verifiedCosignature(note.replace('\n7\n', '\n8\n'), witness)).toBe(undefined);
    // The log's own line is no cosignature; a log key is no witness key.
    expect(verifiedCosignature(`${VECTORS.body}\n${VECTORS.signatureLine}`, witness)).toBe(undefined);
    expect(verifiedCosignature(note, parseVerifierKey(VECTORS.verifierKey)!)).toBe(undefined);
  });
});
