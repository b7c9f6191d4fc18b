import { describe, expect, it } from 'vitest';
import { maskAccount } from './mask-account.ts';

describe('maskAccount', () => {
  it.each([
    ['trader@example.com', 'tr***@example.com'],
    ['ab@example.com', 'a***@example.com'],
    ['13812345678', '138****5678'],
    ['+85291234567', '+85****4567'],
    ['abcd', 'a***d'],
    ['ab', '***'],
    ['  trader@example.com ', 'tr***@example.com'],
  ])('masks %s as %s', (account, masked) => {
    expect(maskAccount(account)).toBe(masked);
  });
});
