// What the success page (/success) can say, and where it lets the trader go next (docs/product.md, "The
// success page"). The page shows only texts chosen from this fixed list: whatever else the address holds
// is never put on the page.

/** The completed actions the page has a title, a description and a record link for. */
export const SUCCESS_KINDS = [
  'register',
  'passwordReset',
  'bindEmail',
  'deposit',
  'withdrawal',
  'transfer',
  'flash',
  'p2pOrder',
] as const;

export type SuccessKind = (typeof SUCCESS_KINDS)[number];

/** The page the trader checks the result on, per action. */
export const RECORD_PATHS: Readonly<Record<SuccessKind, string>> = {
  register: '/accountSet',
  passwordReset: '/components/login',
  bindEmail: '/accountSet',
  deposit: '/chargeRecord?tab=deposits',
  withdrawal: '/chargeRecord?tab=withdrawals',
  transfer: '/transferLog?tab=transfers',
  flash: '/transferLog?tab=flash',
  p2pOrder: '/transferRecord',
};

/** The action `?what=` names, or null (the generic "Done") when it is missing or not a known key. */
export function successKind(what: string | null): SuccessKind | null {
  return what !== null && (SUCCESS_KINDS as readonly string[]).includes(what) ? (what as SuccessKind) : null;
}
