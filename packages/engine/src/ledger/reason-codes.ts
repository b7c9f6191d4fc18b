// Why a balance changed. Every balance event carries one of these; the account log shows them. Codes are
// grouped by area and never renumbered: 1-99 the ledger itself, 100s funding, 200s withdrawals, 300s spot;
// later areas (lever, seconds contracts, products) take the next hundreds. Each area declares its own
// table (Area.reasonCodes); src/reason-codes.ts joins them.

export const LedgerReasonCode = {
  /** Void: a hold reached its expiry (in command time) and what it still held returns to available. */
  holdExpired: 1,
} as const;
