// SHA-256 (FIPS 180-4) in plain TypeScript, so the engine can hash its state in any JavaScript runtime
// without importing a platform module. It is used for the state hash, where agreement with every other
// SHA-256 implementation matters more than speed (the tests compare it with node:crypto).

const roundConstants = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

function compress(state: Int32Array, words: Int32Array, block: Uint8Array, offset: number): void {
  for (let index = 0; index < 16; index += 1) {
    const at = offset + index * 4;
    words[index] =
      ((block[at] as number) << 24) |
      ((block[at + 1] as number) << 16) |
      ((block[at + 2] as number) << 8) |
      (block[at + 3] as number);
  }
  for (let index = 16; index < 64; index += 1) {
    const w15 = words[index - 15] as number;
    const w2 = words[index - 2] as number;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    words[index] = ((words[index - 16] as number) + s0 + (words[index - 7] as number) + s1) | 0;
  }
  let a = state[0] as number;
  let b = state[1] as number;
  let c = state[2] as number;
  let d = state[3] as number;
  let e = state[4] as number;
  let f = state[5] as number;
  let g = state[6] as number;
  let h = state[7] as number;
  for (let index = 0; index < 64; index += 1) {
    const sum1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const choose = (e & f) ^ (~e & g);
    const t1 = (h + sum1 + choose + (roundConstants[index] as number) + (words[index] as number)) | 0;
    const sum0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const majority = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (sum0 + majority) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = ((state[0] as number) + a) | 0;
  state[1] = ((state[1] as number) + b) | 0;
  state[2] = ((state[2] as number) + c) | 0;
  state[3] = ((state[3] as number) + d) | 0;
  state[4] = ((state[4] as number) + e) | 0;
  state[5] = ((state[5] as number) + f) | 0;
  state[6] = ((state[6] as number) + g) | 0;
  state[7] = ((state[7] as number) + h) | 0;
}

// Scratch space reused by every call (JavaScript runs one call at a time, and nothing here calls out): a
// million hashes then allocate one digest each, not four typed arrays, which keeps the garbage collector out
// of the liabilities tree builder's way.
const scratchState = new Int32Array(8);
const scratchWords = new Int32Array(64);
const scratchTail = new Uint8Array(128);
const scratchTailView = new DataView(scratchTail.buffer);
const INITIAL_STATE = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
] as const;

/** SHA-256 of bytes, as its 32 bytes. */
export function sha256(bytes: Uint8Array): Uint8Array {
  const state = scratchState;
  state.set(INITIAL_STATE);
  const words = scratchWords;
  const fullBlocks = bytes.length - (bytes.length % 64);
  for (let offset = 0; offset < fullBlocks; offset += 64) compress(state, words, bytes, offset);
  // The tail: the remaining bytes, a 1 bit, zeros, and the message length in bits as a 64-bit number.
  const tailLength = bytes.length - fullBlocks;
  const tailBytes = tailLength < 56 ? 64 : 128;
  const tail = scratchTail;
  tail.fill(0);
  tail.set(bytes.subarray(fullBlocks));
  tail[tailLength] = 0x80;
  const bitLength = bytes.length * 8;
  scratchTailView.setUint32(tailBytes - 8, Math.floor(bitLength / 0x1_0000_0000));
  scratchTailView.setUint32(tailBytes - 4, bitLength >>> 0);
  for (let offset = 0; offset < tailBytes; offset += 64) compress(state, words, tail, offset);
  const digest = new Uint8Array(32);
  const out = new DataView(digest.buffer);
  for (let index = 0; index < 8; index += 1) out.setUint32(index * 4, (state[index] as number) >>> 0);
  return digest;
}

/** Each byte's two lower-case hex digits. */
const HEX_BYTES: readonly string[] = Array.from({ length: 256 }, (_, byte) =>
  byte.toString(16).padStart(2, '0'),
);

/** Bytes as lower-case hex digits. */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (let index = 0; index < bytes.length; index += 1) hex += HEX_BYTES[bytes[index] as number] as string;
  return hex;
}

/** SHA-256 of bytes, as 64 lower-case hex digits. */
export function sha256Hex(bytes: Uint8Array): string {
  return toHex(sha256(bytes));
}

const encoder = new TextEncoder();

/** SHA-256 of a string's UTF-8 bytes. */
export function sha256HexOfText(text: string): string {
  return sha256Hex(encoder.encode(text));
}
