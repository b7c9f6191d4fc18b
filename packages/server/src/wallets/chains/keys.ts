// Deposit keys: one BIP32 account-level extended public key per network, from which every user's deposit
// address is derived as <account key>/0/<user id>. The exchange holds no private key for them: the operator
// keeps those offline (or at the custody provider) and configures only the public halves (DEPOSIT_XPUBS).
//
// Without configuration a development seed is generated at first start and stored under DATA_DIR, so that
// a fresh installation has real, well-formed addresses; the server says loudly that they are for
// development only, since whoever can read DATA_DIR holds their private keys.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check, hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import type { Network } from './addresses.ts';
import { NETWORKS, addressFromPublicKey, isNetwork } from './addresses.ts';

/** BIP 44 / BIP 84 account paths, account 0, per network (SLIP-44 coin types 0, 2, 3, 60, 195, 144). */
export const ACCOUNT_PATHS: Record<Network, string> = {
  bitcoin: "m/84'/0'/0'",
  litecoin: "m/84'/2'/0'",
  dogecoin: "m/44'/3'/0'",
  ethereum: "m/44'/60'/0'",
  tron: "m/44'/195'/0'",
  xrpl: "m/44'/144'/0'",
};

/** Users are numbered from 1 below 2^31, so a user id is a valid non-hardened child index. */
const MAX_CHILD_INDEX = 0x7fffffff;

export type DepositKeyOrigin = 'configured' | 'development';

export interface DerivedAddress {
  network: Network;
  address: string;
  /** The path below the network's extended public key. */
  path: string;
  /** First four bytes (hex) of the extended key's identifier, to tell addresses of different keys apart. */
  keyFingerprint: string;
}

const base58check = createBase58check(sha256);

/**
 * Parses one extended public key in any of the usual version prefixes (xpub, ypub, zpub, Ltub, dgub...).
 * An extended private key is refused: the server must never be configured with one.
 */
export function parseExtendedPublicKey(text: string): HDKey {
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(text.trim());
  } catch {
    throw new Error('is not a base58check extended key');
  }
  if (bytes.length !== 78) throw new Error('is not an extended key (wrong length)');
  const keyByte = bytes[45];
  if (keyByte === 0x00) throw new Error('is an extended PRIVATE key; configure the public key only');
  if (keyByte !== 0x02 && keyByte !== 0x03) throw new Error('does not hold a compressed public key');
  const version = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0);
  // The private version is never used for a public key; any value other than the public one will do.
  return HDKey.fromExtendedKey(text.trim(), { public: version, private: version ^ 1 });
}

/** DEPOSIT_XPUBS: comma-separated network=key pairs, e.g. "bitcoin=zpub6r...,ethereum=xpub6C...". */
export function parseDepositXpubs(text: string | undefined): Map<Network, HDKey> {
  const keys = new Map<Network, HDKey>();
  if (text === undefined || text.trim() === '') return keys;
  for (const part of text.split(',')) {
    const [rawNetwork, rawKey, ...rest] = part.split('=');
    const network = rawNetwork?.trim();
    if (rawKey === undefined || rest.length > 0 || !isNetwork(network)) {
      throw new Error(
        `DEPOSIT_XPUBS: "${network ?? ''}" is not network=key with a network of ${NETWORKS.join(', ')}`,
      );
    }
    if (keys.has(network)) throw new Error(`DEPOSIT_XPUBS names ${network} twice`);
    try {
      keys.set(network, parseExtendedPublicKey(rawKey));
    } catch (error) {
      throw new Error(`DEPOSIT_XPUBS: the ${network} key ${(error as Error).message}`, { cause: error });
    }
  }
  return keys;
}

export class DepositKeys {
  readonly source: DepositKeyOrigin;
  private readonly keys: Map<Network, HDKey>;

  constructor(keys: Map<Network, HDKey>, source: DepositKeyOrigin) {
    this.keys = keys;
    this.source = source;
  }

  /** The account-level public keys of a seed, as an operator would export them from a wallet. */
  static fromSeed(seed: Uint8Array): DepositKeys {
    const master = HDKey.fromMasterSeed(seed);
    const keys = new Map<Network, HDKey>();
    for (const network of NETWORKS) {
      // Only the public half is kept, exactly as with configured keys.
      keys.set(network, HDKey.fromExtendedKey(master.derive(ACCOUNT_PATHS[network]).publicExtendedKey));
    }
    return new DepositKeys(keys, 'development');
  }

  has(network: Network): boolean {
    return this.keys.has(network);
  }

  networks(): Network[] {
    return NETWORKS.filter((network) => this.keys.has(network));
  }

  /** The user's deposit address on a network, or undefined when no key is configured for it. */
  derive(network: Network, userId: number): DerivedAddress | undefined {
    const key = this.keys.get(network);
    if (key === undefined) return undefined;
    if (!Number.isSafeInteger(userId) || userId < 1 || userId > MAX_CHILD_INDEX) {
      throw new RangeError(`user id ${userId} is no child index`);
    }
    const child = key.deriveChild(0).deriveChild(userId);
    if (child.publicKey === null) throw new Error('derived key has no public key');
    return {
      network,
      address: addressFromPublicKey(network, child.publicKey),
      path: `0/${userId}`,
      keyFingerprint: hex.encode((key.identifier as Uint8Array).subarray(0, 4)),
    };
  }
}

/** Deposit keys, loaded when first needed (a development seed is read or generated then). */
export interface DepositKeySource {
  readonly source: DepositKeyOrigin;
  load(): Promise<DepositKeys>;
}

export const DEVELOPMENT_SEED_FILE = join('wallet', 'development-seed.hex');

/**
 * The development seed under DATA_DIR, created (64 random bytes, readable by the owner only) when missing.
 * Returns whether it was created now.
 */
export async function loadDevelopmentSeed(
  dataDir: string,
): Promise<{ seed: Uint8Array; created: boolean; path: string }> {
  const path = join(dataDir, DEVELOPMENT_SEED_FILE);
  try {
    const text = (await readFile(path, 'utf8')).trim();
    if (!/^[0-9a-f]{128}$/.test(text)) throw new Error(`${path} does not hold a 64-byte hex seed`);
    return { seed: hex.decode(text), created: false, path };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const seed = new Uint8Array(randomBytes(64));
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  // 'wx' fails if another process created the file in between; then that process's seed is the one to use.
  try {
    await writeFile(path, `${hex.encode(seed)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadDevelopmentSeed(dataDir);
    throw error;
  }
  await chmod(path, 0o600);
  return { seed, created: true, path };
}
