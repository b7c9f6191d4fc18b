// Result codes of the log area (its own block: 1600s invalid input, 3600s wrong state). The numbers are
// never reused.

export const LogResultCode = {
  /** The origin is not 1 to 200 printable ASCII characters without spaces or "+". */
  logInvalidOrigin: 1600,
  /** The snapshot id is not 1 to 64 characters of letters, digits, ".", "_" and "-". */
  logInvalidSnapshotId: 1601,
  /** The root is not 64 lowercase hex digits. */
  logInvalidRoot: 1602,
  /** The log has not been started (`startLog`). */
  logNotStarted: 3600,
  /** A repeated `startLog` names another origin: the origin of a log never changes. */
  logOriginFixed: 3601,
  /** No liabilities capture with that snapshot id is waiting to be published. */
  logCaptureNotPending: 3602,
  /** The published columns, totals or leaf count differ from what the capture recorded. */
  logTotalsMismatch: 3603,
} as const;

export type LogResultCodeName = keyof typeof LogResultCode;
