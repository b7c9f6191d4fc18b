// Chain transaction ids in canonical form. A deposit is credited once per transaction id, address and coin,
// so two spellings of one id must become one text before that check: hex digits are case-insensitive, and
// some tools write an Ethereum hash without its 0x (or a TRON id with one). Everything here is pure.
//
// Formats (the id is the transaction's 32-byte hash in hex):
// - Bitcoin, Litecoin, Dogecoin: 64 hex digits, canonical lower case (as nodes and explorers print them).
// - Ethereum (and ERC20 tokens): 0x and 64 hex digits, canonical lower case; accepted without the 0x.
// - TRON (and TRC20 tokens): 64 hex digits, canonical lower case; accepted with a 0x, which is dropped.
// - XRP Ledger: 64 hex digits, canonical upper case (as rippled prints them).
import type { Network } from './addresses.ts';

export type TxIdCheck = { ok: true; txId: string } | { ok: false };

const HASH = /^(0x)?([0-9a-f]{64})$/i;

/** The canonical form of a transaction id on a network, or `ok: false` when it is not one. */
export function canonicalTxId(network: Network, input: string): TxIdCheck {
  const match = HASH.exec(input.trim());
  if (match === null) return { ok: false };
  const prefixed = match[1] !== undefined;
  const digits = (match[2] as string).toLowerCase();
  switch (network) {
    case 'ethereum':
      return { ok: true, txId: `0x${digits}` };
    case 'tron':
      return { ok: true, txId: digits };
    case 'xrpl':
      return prefixed ? { ok: false } : { ok: true, txId: digits.toUpperCase() };
    case 'bitcoin':
    case 'litecoin':
    case 'dogecoin':
      return prefixed ? { ok: false } : { ok: true, txId: digits };
  }
}

/** What a transaction id of a network looks like, for a refusal's message. */
export function txIdShape(network: Network): string {
  if (network === 'ethereum') return '0x and 64 hexadecimal digits';
  return '64 hexadecimal digits';
}
