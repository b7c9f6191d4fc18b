import type { AccountTarget } from '../../data/auth.ts';

/** How a form shows the account a code goes to. */
export function targetLabel(target: AccountTarget): string {
  return target.kind === 'email' ? target.email : `+${target.areaCode} ${target.mobile}`;
}
