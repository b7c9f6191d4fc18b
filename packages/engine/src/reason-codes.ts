// Every reason code of the installed areas, by name (see ledger/reason-codes.ts for the ranges).
import { FundingReasonCode } from './funding/reason-codes.ts';
import { LedgerReasonCode } from './ledger/reason-codes.ts';
import { SpotReasonCode } from './spot/reason-codes.ts';
import { MicroReasonCode } from './micro/codes.ts';
import { P2pReasonCode } from './p2p/codes.ts';

export const ReasonCode = {
  ...LedgerReasonCode,
  ...FundingReasonCode,
  ...SpotReasonCode,
  ...MicroReasonCode,
  ...P2pReasonCode,
} as const;

export type ReasonName = keyof typeof ReasonCode;
export type Reason = (typeof ReasonCode)[ReasonName];

const namesByCode = new Map<number, ReasonName>(
  (Object.keys(ReasonCode) as ReasonName[]).map((name) => [ReasonCode[name], name]),
);

export function reasonName(code: number): ReasonName | 'unknown' {
  return namesByCode.get(code) ?? 'unknown';
}
