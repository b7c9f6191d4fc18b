// The pieces of the account features on their own: password hashes, e-mail and phone normalisation, the
// country list, invite codes, TOTP steps and ID masking.
import { describe, expect, it } from 'vitest';
import { TOTP } from 'otpauth';
import { countryList } from '../../src/accounts/countries.ts';
import { normalizeAreaCode, normalizeEmail, normalizePhone } from '../../src/accounts/identifiers.ts';
import { INVITE_CODE_PATTERN, randomInviteCode } from '../../src/accounts/invite-codes.ts';
import { hashPassword, verifyPassword } from '../../src/accounts/passwords.ts';
import { maskCardId } from '../../src/accounts/real-name.ts';
import { matchingStep } from '../../src/accounts/totp.ts';
import { uploadIdFrom } from '../../src/accounts/uploads.ts';

describe('passwords', () => {
  it('hashes with a fresh salt and verifies', async () => {
    const first = await hashPassword('secret123');
    const second = await hashPassword('secret123');
    expect(first).not.toBe(second);
    expect(await verifyPassword('secret123', first)).toBe(true);
    expect(await verifyPassword('secret124', first)).toBe(false);
    expect(await verifyPassword('Secret123', second)).toBe(false);
  });

  it('never matches a malformed or tampered hash', async () => {
    const hash = await hashPassword('secret123');
    expect(await verifyPassword('secret123', 'not-a-real-hash')).toBe(false);
    expect(await verifyPassword('secret123', hash.replace('scrypt$15', 'scrypt$30'))).toBe(false);
    expect(await verifyPassword('secret123', `${hash.slice(0, -2)}AA`)).toBe(false);
  });
});

describe('e-mail and phone', () => {
  it.each([
    [' Someone@Example.COM ', 'someone@example.com'],
    ['a.b+c@mail.example.org', 'a.b+c@mail.example.org'],
    ['no-at-sign', null],
    ['two@@example.com', null],
    ['a@b', null],
    ['a b@example.com', null],
    [`${'x'.repeat(116)}@b.io`, null],
    [`${'x'.repeat(115)}@b.io`, `${'x'.repeat(115)}@b.io`],
  ])('normalizeEmail(%j) = %j', (input, expected) => {
    expect(normalizeEmail(input)).toBe(expected);
  });

  it.each([
    ['86', '86'],
    ['+86', '86'],
    ['CN', '86'],
    ['us', '1'],
    ['999', null],
    ['XX', null],
    ['', null],
  ])('normalizeAreaCode(%j) = %j', (input, expected) => {
    expect(normalizeAreaCode(input)).toBe(expected);
  });

  it('validates numbers for their country and drops trunk prefixes', () => {
    expect(normalizePhone('86', '138 0013 8000')).toEqual({
      areaCode: '86',
      national: '13800138000',
      e164: '+8613800138000',
    });
    expect(normalizePhone('44', '07911 123456')?.e164).toBe('+447911123456');
    expect(normalizePhone('86', '12345')).toBeNull();
    expect(normalizePhone('1', '13800138000')).toBeNull();
    expect(normalizePhone('86', '+12025550123')).toBeNull();
  });
});

describe('country list', () => {
  it('names every calling-code region in each language, sorted by the local name', () => {
    const english = countryList('en');
    expect(english.length).toBeGreaterThan(230);
    expect(english.find((country) => country.country_id === 'CN')).toEqual({
      country_id: 'CN',
      area_code: '86',
      name: 'China',
      name_cn: '中国',
      name_en: 'China',
    });
    expect(countryList('kr').find((country) => country.country_id === 'JP')?.name).toBe('일본');
    expect(countryList('jp').find((country) => country.country_id === 'KR')?.name).toBe('韓国');
    expect(countryList('hk').find((country) => country.country_id === 'US')?.name).toBe('美國');
    const names = english.map((country) => country.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('en').compare));
  });
});

describe('invite codes, TOTP, masks and upload addresses', () => {
  it('makes unambiguous eight-character invite codes', () => {
    for (let index = 0; index < 200; index += 1) {
      const code = randomInviteCode();
      expect(code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
      expect(INVITE_CODE_PATTERN.test(code)).toBe(true);
    }
  });

  it('accepts a code one step off either way, not two', () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const totp = new TOTP({ secret });
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(matchingStep(secret, totp.generate({ timestamp: now }), now)).toBe(step);
    expect(matchingStep(secret, totp.generate({ timestamp: now - 30_000 }), now)).toBe(step - 1);
    expect(matchingStep(secret, totp.generate({ timestamp: now + 30_000 }), now)).toBe(step + 1);
    expect(matchingStep(secret, totp.generate({ timestamp: now + 60_000 }), now)).toBeNull();
    expect(matchingStep(secret, 'abcdef', now)).toBeNull();
  });

  it('masks ID numbers and reads upload ids', () => {
    expect(maskCardId('110101199001011234')).toBe('11**************34');
    expect(maskCardId('AB12')).toBe('****');
    const id = 'a'.repeat(32);
    expect(uploadIdFrom(`/api/upload/image?id=${id}`)).toBe(id);
    expect(uploadIdFrom(id)).toBe(id);
    expect(uploadIdFrom('/api/upload/image?id=../../etc/passwd')).toBeNull();
  });
});
