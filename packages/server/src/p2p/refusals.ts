// The P2P area's message for every engine result code its commands can return (docs/p2p.md).
import { P2pResultCode, resultCodeName } from '@fairex/engine';
import type { MessageKey } from '@fairex/shared';
import type { Refusal } from '../engine-runner/submit.ts';

const KEYS: Partial<Record<string, MessageKey>> = {
  p2pAmountOutOfLimits: 'p2p.amount_out_of_limits',
  p2pNoReferencePrice: 'p2p.no_reference',
  p2pUnknownFiat: 'p2p.refused',
  p2pInvalidWindow: 'p2p.refused',
  p2pOwnAd: 'p2p.own_ad',
  p2pEscrowShort: 'p2p.escrow_short',
  p2pAdExhausted: 'p2p.ad_exhausted',
  p2pNotMerchant: 'p2p.not_merchant',
  p2pAdNotFound: 'p2p.ad_not_found',
  p2pAdNotOnline: 'p2p.ad_not_online',
  p2pOrderNotFound: 'p2p.order_not_found',
  p2pNotParty: 'p2p.order_not_found',
  p2pWrongState: 'p2p.wrong_state',
  p2pRestricted: 'p2p.restricted',
  p2pAppealTooEarly: 'p2p.appeal_too_early',
  p2pNotAdOwner: 'p2p.ad_not_found',
  p2pTooMany: 'p2p.too_many',
  invalidAmount: 'p2p.refused',
  invalidPrice: 'p2p.no_reference',
  currencyNotFound: 'p2p.unknown_asset',
};

const names = new Map<number, string>(Object.entries(P2pResultCode).map(([name, code]) => [code, name]));

export function p2pRefusalKey(code: number): MessageKey {
  return KEYS[names.get(code) ?? resultCodeName(code)] ?? 'p2p.refused';
}

export const p2pRefusal: Refusal = (code) => ({ key: p2pRefusalKey(code) });
