// Password hashing with scrypt from node:crypto. The stored form carries its own parameters, so that the
// cost can be raised later without invalidating existing hashes:
//   scrypt$<log2 N>$<r>$<p>$<salt, base64url>$<key, base64url>
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';

interface ScryptCost {
  log2N: number;
  r: number;
  p: number;
}

/** 2^15 x 8 x 128 bytes = 32 MiB per hash, about 100 ms on one core: slow to guess, quick to log in. */
export const SCRYPT_COST: ScryptCost = { log2N: 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;
const HASH_SHAPE =
  /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{32,128})$/;

function scrypt(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const N = 2 ** cost.log2N;
  // Node refuses to allocate more than maxmem; scrypt needs 128 * N * r bytes plus a little.
  const options: ScryptOptions = { N, r: cost.r, p: cost.p, maxmem: 256 * N * cost.r };
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFKC'), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, cost: ScryptCost = SCRYPT_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, cost);
  return ['scrypt', cost.log2N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

/** True when `password` matches the stored hash. A malformed hash never matches and never throws. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = HASH_SHAPE.exec(stored);
  if (!match) {
    // Spend the same time as a real check, so that a response time does not tell which accounts exist.
    await scrypt(password, DUMMY_SALT, SCRYPT_COST);
    return false;
  }
  const [, log2N, r, p, salt, key] = match as unknown as [string, string, string, string, string, string];
  const cost = { log2N: Number(log2N), r: Number(r), p: Number(p) };
  if (cost.log2N < 10 || cost.log2N > 20 || cost.r < 1 || cost.r > 32 || cost.p < 1 || cost.p > 16)
    return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), cost);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

const DUMMY_SALT = randomBytes(SALT_BYTES);

/** A hash of nothing anyone knows: checked against when an account does not exist, to take the same time. */
export async function dummyPasswordCheck(password: string): Promise<false> {
  await scrypt(password, DUMMY_SALT, SCRYPT_COST);
  return false;
}

export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@fairex/shared/api/account-fields.ts';
