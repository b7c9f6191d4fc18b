import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { afterAll, describe, expect, it } from 'vitest';
import { checkAddress } from './addresses.ts';
import { DepositKeys, loadDevelopmentSeed, parseDepositXpubs, parseExtendedPublicKey } from './keys.ts';

// BIP 32 test vector 1.
const VECTOR_1_M_0H =
  'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw';
const VECTOR_1_M_0H_1 =
  'xpub6ASuArnXKPbfEwhqN6e3mwBcDTgzisQN1wXN9BJcM47sSikHjJf3UFHKkNAWbWMiGj7Wf5uMash7SyYq527Hqck2AxYysAA7xmALppuCkwQ';
const VECTOR_1_MASTER_PRIVATE =
  'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi';

const folders: string[] = [];
afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('extended public keys', () => {
  it('derives non-hardened children as BIP 32 test vector 1 says', () => {
    const parent = parseExtendedPublicKey(VECTOR_1_M_0H);
    expect(parent.deriveChild(1).publicExtendedKey).toBe(VECTOR_1_M_0H_1);
  });

  it('reads other version prefixes (zpub) as the same key', () => {
    const key = parseExtendedPublicKey(VECTOR_1_M_0H);
    const zpub = HDKey.fromExtendedKey(VECTOR_1_M_0H);
    // Re-encode the same key under the zpub version bytes (0x04b24746).
    const rebuilt = new HDKey({
      versions: { private: 0x04b2430c, public: 0x04b24746 },
      depth: zpub.depth,
      index: zpub.index,
      parentFingerprint: zpub.parentFingerprint,
      chainCode: zpub.chainCode as Uint8Array,
      publicKey: zpub.publicKey as Uint8Array,
    });
    expect(rebuilt.publicExtendedKey.startsWith('zpub')).toBe(true);
    expect(hex.encode(parseExtendedPublicKey(rebuilt.publicExtendedKey).publicKey as Uint8Array)).toBe(
      hex.encode(key.publicKey as Uint8Array),
    );
  });

  it.each([
    ['a private key', VECTOR_1_MASTER_PRIVATE, /PRIVATE/],
    ['a broken checksum', `${VECTOR_1_M_0H.slice(0, -1)}x`, /base58check/],
    ['text', 'not a key', /base58check/],
  ])('refuses %s', (_name, text, message) => {
    expect(() => parseExtendedPublicKey(text)).toThrow(message);
  });

  it('parses DEPOSIT_XPUBS and names the bad part', () => {
    const keys = parseDepositXpubs(`bitcoin=${VECTOR_1_M_0H}, ethereum=${VECTOR_1_M_0H_1}`);
    expect([...keys.keys()]).toEqual(['bitcoin', 'ethereum']);
    expect(parseDepositXpubs(undefined).size).toBe(0);
    expect(() => parseDepositXpubs(`solana=${VECTOR_1_M_0H}`)).toThrow(/network=key/);
    expect(() => parseDepositXpubs(`bitcoin=${VECTOR_1_M_0H},bitcoin=${VECTOR_1_M_0H}`)).toThrow(/twice/);
    expect(() => parseDepositXpubs(`tron=${VECTOR_1_MASTER_PRIVATE}`)).toThrow(
      /tron key is an extended PRIVATE/,
    );
  });
});

describe('deposit keys', () => {
  it('gives each user a distinct, valid address per network, the same every time', () => {
    const keys = DepositKeys.fromSeed(new Uint8Array(64).fill(7));
    for (const network of keys.networks()) {
      const first = keys.derive(network, 1);
      const second = keys.derive(network, 2);
      expect(first).toBeDefined();
      expect(first?.address).not.toBe(second?.address);
      expect(keys.derive(network, 1)).toEqual(first);
      expect(checkAddress(network, first?.address ?? '')).toEqual({ ok: true, address: first?.address });
      expect(first?.path).toBe('0/1');
    }
  });

  it('derives from configured keys what the seed holder derives privately', () => {
    const seed = new Uint8Array(64).fill(9);
    const development = DepositKeys.fromSeed(seed);
    const master = HDKey.fromMasterSeed(seed);
    const configured = new DepositKeys(
      parseDepositXpubs(`ethereum=${master.derive("m/44'/60'/0'").publicExtendedKey}`),
      'configured',
    );
    expect(configured.derive('ethereum', 42)?.address).toBe(development.derive('ethereum', 42)?.address);
    expect(configured.derive('bitcoin', 42)).toBeUndefined();
    expect(() => configured.derive('ethereum', 0)).toThrow(RangeError);
  });

  it('creates the development seed once, readable by its owner only', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fairex-seed-'));
    folders.push(dataDir);
    const first = await loadDevelopmentSeed(dataDir);
    expect(first.created).toBe(true);
    expect(((await stat(first.path)).mode & 0o777).toString(8)).toBe('600');
    const second = await loadDevelopmentSeed(dataDir);
    expect(second.created).toBe(false);
    expect(hex.encode(second.seed)).toBe(hex.encode(first.seed));
    expect((await readFile(first.path, 'utf8')).trim()).toHaveLength(128);
  });
});
