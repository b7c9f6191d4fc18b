// Where a user can look up a payout on its chain: a public block explorer's page for the transaction.
import type { Network } from './chains/addresses.ts';
import { isNetwork } from './chains/addresses.ts';

const EXPLORERS: Record<Network, string> = {
  bitcoin: 'https://mempool.space/tx/',
  litecoin: 'https://litecoinspace.org/tx/',
  dogecoin: 'https://blockchair.com/dogecoin/transaction/',
  ethereum: 'https://etherscan.io/tx/',
  tron: 'https://tronscan.org/#/transaction/',
  xrpl: 'https://livenet.xrpl.org/transactions/',
};

/** Transaction ids on these chains are hexadecimal (Ethereum with 0x); anything else gets no link. */
const TX_ID = /^(0x)?[0-9A-Fa-f]{16,128}$/;

/** The explorer page of a payout's transaction, or null when there is no transaction id (yet). */
export function explorerUrl(network: string, txId: string | null): string | null {
  if (txId === null || !TX_ID.test(txId) || !isNetwork(network)) return null;
  return `${EXPLORERS[network]}${txId}`;
}
