// Chain addresses: how each supported network turns a public key into an address, and how a withdrawal
// address typed by a user is checked against its network's encoding and checksum. Everything here is pure.
//
// Supported encodings:
// - Bitcoin and Litecoin: base58check P2PKH and P2SH, bech32 segwit v0 (BIP 173) and bech32m v1+ (BIP 350);
//   deposit addresses are native segwit P2WPKH.
// - Dogecoin: base58check P2PKH and P2SH.
// - Ethereum (and ERC20 tokens): 0x and 40 hex digits with the EIP-55 mixed-case checksum.
// - TRON (and TRC20 tokens): base58check of 0x41 and the 20-byte account hash.
// - XRP Ledger: base58check in the XRP alphabet of 0x00 and the 20-byte account id.
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base58, base58xrp, bech32, bech32m, createBase58check, hex } from '@scure/base';

export const NETWORKS = ['bitcoin', 'litecoin', 'dogecoin', 'ethereum', 'tron', 'xrpl'] as const;
export type Network = (typeof NETWORKS)[number];

export function isNetwork(value: unknown): value is Network {
  return typeof value === 'string' && (NETWORKS as readonly string[]).includes(value);
}

interface UtxoParameters {
  /** bech32 human-readable part; undefined when the chain has no segwit. */
  bech32Prefix: string | undefined;
  pubKeyHashVersions: readonly number[];
  scriptHashVersions: readonly number[];
}

const UTXO: Record<'bitcoin' | 'litecoin' | 'dogecoin', UtxoParameters> = {
  bitcoin: { bech32Prefix: 'bc', pubKeyHashVersions: [0x00], scriptHashVersions: [0x05] },
  // Litecoin's P2SH moved from 0x05 (shared with Bitcoin's "3...") to 0x32 ("M..."); both are still in use.
  litecoin: { bech32Prefix: 'ltc', pubKeyHashVersions: [0x30], scriptHashVersions: [0x32, 0x05] },
  dogecoin: { bech32Prefix: undefined, pubKeyHashVersions: [0x1e], scriptHashVersions: [0x16] },
};

const sha256d = (data: Uint8Array): Uint8Array => sha256(sha256(data));
const base58check = createBase58check(sha256);

/** HASH160: RIPEMD-160 of SHA-256, the 20-byte key hash of Bitcoin-family and XRP addresses. */
function hash160(data: Uint8Array): Uint8Array {
  return ripemd160(sha256(data));
}

/** The last 20 bytes of Keccak-256 of the uncompressed key without its 0x04 prefix (Ethereum and TRON). */
function keccakAccount(publicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(12);
}

function withVersion(version: number, payload: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(payload.length + 1);
  bytes[0] = version;
  bytes.set(payload, 1);
  return bytes;
}

/** An Ethereum address in its EIP-55 checksummed form, from 20 bytes. */
export function eip55(account: Uint8Array): string {
  const lower = hex.encode(account);
  const hash = hex.encode(keccak_256(new TextEncoder().encode(lower)));
  let result = '0x';
  for (let index = 0; index < lower.length; index += 1) {
    const char = lower[index] as string;
    result += parseInt(hash[index] as string, 16) >= 8 ? char.toUpperCase() : char;
  }
  return result;
}

function xrpChecked(bytes: Uint8Array): string {
  const checksum = sha256d(bytes).subarray(0, 4);
  const full = new Uint8Array(bytes.length + 4);
  full.set(bytes);
  full.set(checksum, bytes.length);
  return base58xrp.encode(full);
}

/** The deposit address of a compressed secp256k1 public key (33 bytes) on a network. */
export function addressFromPublicKey(network: Network, publicKey: Uint8Array): string {
  if (publicKey.length !== 33) throw new RangeError('a compressed public key has 33 bytes');
  switch (network) {
    case 'bitcoin':
    case 'litecoin': {
      const prefix = UTXO[network].bech32Prefix as string;
      return bech32.encode(prefix, [0, ...bech32.toWords(hash160(publicKey))]);
    }
    case 'dogecoin':
      return base58check.encode(
        withVersion(UTXO.dogecoin.pubKeyHashVersions[0] as number, hash160(publicKey)),
      );
    case 'ethereum':
      return eip55(keccakAccount(publicKey));
    case 'tron':
      return base58check.encode(withVersion(0x41, keccakAccount(publicKey)));
    case 'xrpl':
      return xrpChecked(withVersion(0x00, hash160(publicKey)));
  }
}

/** Why an address was refused; the caller turns it into a translated message. */
export type AddressProblem = 'format' | 'checksum';

export type AddressCheck = { ok: true; address: string } | { ok: false; problem: AddressProblem };

const MAX_ADDRESS_LENGTH = 128;

/**
 * Checks a withdrawal address for a network and returns it in canonical form (EIP-55 for Ethereum,
 * lower case for bech32). `checksum` means the address has the network's shape but a wrong checksum (most
 * likely a typo); `format` means it is not an address of this network at all.
 */
export function checkAddress(network: Network, input: string): AddressCheck {
  const address = input.trim();
  if (address.length === 0 || address.length > MAX_ADDRESS_LENGTH || /\s/.test(address)) {
    return { ok: false, problem: 'format' };
  }
  switch (network) {
    case 'bitcoin':
    case 'litecoin':
    case 'dogecoin':
      return checkUtxoAddress(UTXO[network], address);
    case 'ethereum':
      return checkEthereumAddress(address);
    case 'tron':
      return checkBase58Versioned(address, (bytes) => bytes.length === 21 && bytes[0] === 0x41, /^T/);
    case 'xrpl':
      return checkXrpAddress(address);
  }
}

function checkUtxoAddress(parameters: UtxoParameters, address: string): AddressCheck {
  const prefix = parameters.bech32Prefix;
  if (prefix !== undefined && address.toLowerCase().startsWith(`${prefix}1`)) {
    return checkSegwitAddress(prefix, address);
  }
  const versions = [...parameters.pubKeyHashVersions, ...parameters.scriptHashVersions];
  return checkBase58Versioned(
    address,
    (bytes) => bytes.length === 21 && versions.includes(bytes[0] as number),
  );
}

/**
 * A base58check address whose decoded bytes satisfy `shape`. A string that decodes as base58 with the right
 * length but fails the checksum is a checksum problem; anything else is a format problem.
 */
function checkBase58Versioned(
  address: string,
  shape: (bytes: Uint8Array) => boolean,
  pattern?: RegExp,
): AddressCheck {
  if (pattern !== undefined && !pattern.test(address)) return { ok: false, problem: 'format' };
  let raw: Uint8Array;
  try {
    raw = base58.decode(address);
  } catch {
    return { ok: false, problem: 'format' };
  }
  if (raw.length < 5) return { ok: false, problem: 'format' };
  const payload = raw.subarray(0, raw.length - 4);
  if (!shape(payload)) return { ok: false, problem: 'format' };
  const expected = sha256d(payload).subarray(0, 4);
  const given = raw.subarray(raw.length - 4);
  if (!equalBytes(expected, given)) return { ok: false, problem: 'checksum' };
  return { ok: true, address };
}

/** BIP 173 / BIP 350: version 0 uses bech32 with a 20- or 32-byte program, versions 1-16 use bech32m. */
function checkSegwitAddress(prefix: string, address: string): AddressCheck {
  // Mixed case is invalid in bech32.
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) {
    return { ok: false, problem: 'format' };
  }
  const lower = address.toLowerCase();
  const asBech32 = bech32.decodeUnsafe(lower, 90);
  const asBech32m = bech32m.decodeUnsafe(lower, 90);
  const decoded = asBech32 ?? asBech32m;
  if (!decoded) {
    // The characters are all bech32 characters: then only the checksum can be wrong.
    return {
      ok: false,
      problem: /^[a-z0-9]+1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}$/.test(lower) ? 'checksum' : 'format',
    };
  }
  if (decoded.prefix !== prefix || decoded.words.length === 0) return { ok: false, problem: 'format' };
  const version = decoded.words[0] as number;
  const program = bech32.fromWordsUnsafe(decoded.words.slice(1));
  if (!program || program.length < 2 || program.length > 40 || version > 16) {
    return { ok: false, problem: 'format' };
  }
  if (version === 0) {
    if (!asBech32) return { ok: false, problem: 'checksum' };
    if (program.length !== 20 && program.length !== 32) return { ok: false, problem: 'format' };
  } else if (!asBech32m) {
    return { ok: false, problem: 'checksum' };
  }
  return { ok: true, address: lower };
}

function checkEthereumAddress(address: string): AddressCheck {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return { ok: false, problem: 'format' };
  const body = address.slice(2);
  const canonical = eip55(hex.decode(body.toLowerCase()));
  // An address written in one case carries no checksum (EIP-55 keeps such addresses valid); a mixed-case
  // address must carry the right one.
  const singleCase = body === body.toLowerCase() || body === body.toUpperCase();
  if (!singleCase && canonical !== address) return { ok: false, problem: 'checksum' };
  return { ok: true, address: canonical };
}

function checkXrpAddress(address: string): AddressCheck {
  if (!/^r[1-9A-HJ-NP-Za-km-z]{24,34}$/.test(address)) return { ok: false, problem: 'format' };
  let raw: Uint8Array;
  try {
    raw = base58xrp.decode(address);
  } catch {
    return { ok: false, problem: 'format' };
  }
  if (raw.length !== 25 || raw[0] !== 0x00) return { ok: false, problem: 'format' };
  const expected = sha256d(raw.subarray(0, 21)).subarray(0, 4);
  if (!equalBytes(expected, raw.subarray(21))) return { ok: false, problem: 'checksum' };
  return { ok: true, address };
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}
