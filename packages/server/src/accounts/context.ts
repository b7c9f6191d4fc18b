// What the account services need from the app, passed explicitly so that they can be tested without routes.
import type { AdminAuthenticator } from '../admin/sessions.ts';
import type { SessionAuthenticator } from '../auth/sessions.ts';
import type { Messenger } from '../mail/messenger.ts';
import type { Realtime } from '../realtime/index.ts';
import type { Store } from '../store/index.ts';
import type { SecretBoxSource } from './totp-secrets.ts';
import type { VerificationCodes } from './codes.ts';
import type { Throttle } from './throttle.ts';

export interface AccountContext {
  store: Store;
  sessions: SessionAuthenticator;
  realtime: Pick<Realtime, 'endSession' | 'endUser'>;
  messenger: Messenger;
  throttle: Throttle;
  codes: VerificationCodes;
  admins: AdminAuthenticator;
  inviteCodeRequired: boolean;
  sessionTtlMs: number;
  /** The box that seals authenticator secrets at rest (totp-secrets.ts). */
  secrets: SecretBoxSource;
  /** Private files (identity photos) live under dataDir/private. */
  dataDir: string;
}
