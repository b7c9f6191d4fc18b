// The account services every account, security and administrator route shares: the messenger (SMTP, SMS
// gateway or dev outbox), the brute-force counters, verification codes and the administrator sessions.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AdminAuthenticator } from '../admin/sessions.ts';
import { Messenger } from '../mail/messenger.ts';
import { VerificationCodes } from './codes.ts';
import type { AccountContext } from './context.ts';
import { Throttle } from './throttle.ts';
import { sealStoredTotpSecrets } from './totp-secrets.ts';
import { secretBoxFor } from '../api-keys/sealed-secrets.ts';

declare module 'fastify' {
  interface FastifyInstance {
    accounts: AccountContext;
  }
}

async function accountsPlugin(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const messenger = new Messenger({
    db: app.store,
    log: app.log,
    smtpUrl: config.smtpUrl,
    mailFrom: config.mailFrom,
    smsUrl: config.smsUrl,
    smsToken: config.smsToken,
  });
  const throttle = new Throttle(app.store);
  const codes = new VerificationCodes({
    db: app.store,
    throttle,
    messenger,
    limits: { sendsPerHour: config.codeSendsPerHour, sendsPerIpPerHour: config.codeSendsPerIpPerHour },
  });
  const context: AccountContext = {
    store: app.store,
    sessions: app.sessions,
    realtime: app.realtime,
    messenger,
    throttle,
    codes,
    admins: new AdminAuthenticator(app.store),
    inviteCodeRequired: config.inviteCodeRequired,
    sessionTtlMs: config.sessionTtlHours * 3_600_000,
    dataDir: config.dataDir,
    secrets: () => secretBoxFor(config.dataDir),
  };
  // Authenticator secrets stored before sealing applied are sealed before the server answers anything.
  const sealed = await sealStoredTotpSecrets(app.store, context.secrets);
  if (sealed > 0) app.log.info({ sealed }, 'sealed authenticator secrets stored in the clear');
  app.decorate('accounts', context);
  app.addHook('onClose', async () => messenger.close());
  if (messenger.emailMode === 'outbox' || messenger.smsMode === 'outbox') {
    app.log.info(
      { email: messenger.emailMode, sms: messenger.smsMode },
      'messages without a configured transport go to the dev outbox',
    );
  }
}

export default fp(accountsPlugin, { name: 'accounts', dependencies: ['store', 'auth'] });
