import type { EngineState } from '../state.ts';
import type { Account } from './accounts.ts';

/**
 * The part of an account's available balance that must stay where it is because open positions may need
 * it: a transfer, withdrawal or flash exchange may take only what lies above it. Leveraged positions are
 * the only such claim the product has (spec 03 section 2: funds may not leave the lever wallet while lever
 * positions or pending lever orders need them); until the leverage area keeps positions in the engine no
 * account has any, so nothing is reserved. The leverage area replaces the body of this function, and every
 * command that moves funds out of a wallet already asks it.
 */
export function reservedFunds(state: EngineState, account: Account): bigint {
  void state;
  void account;
  return 0n;
}
