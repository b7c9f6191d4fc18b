// The administrator command line, run from the repository root:
//
//   npm run admin:create -- --username <name> [--role admin|reviewer] [--password-stdin]
//   npm run admin:invite -- [--max-uses <n>] [--note <text>]
//
// `create` makes an administrator (the first one of an exchange is made this way) and prints the password
// it generated, unless one comes on standard input. While no operator invite code is active it also makes
// one and prints it: the first users of a fresh exchange register with it, since nobody can invite them.
// `invite` makes another operator invite code. Both read DATA_DIR / DATABASE_URL like the server; with the
// embedded database the server must be stopped first (one process per data folder). A running server does
// not need this: while no administrator exists it prints a one-time set-up link at start (admin/setup.ts),
// and later administrators are made in the back office.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { AppError } from '../http/app-error.ts';
import { translate } from '@fairex/shared';
import { activeOperatorCode, createOperatorCode } from '../accounts/invite-codes.ts';
import { loadConfig } from '../config.ts';
import type { Store } from '../store/index.ts';
import { FolderInUseError } from '../store/folder-lock.ts';
import { openStore } from '../store/index.ts';
import { ADMIN_ROLES, createAdmin } from './admins.ts';
import { audit } from './audit.ts';
import type { AdminRole } from './sessions.ts';

const USAGE = `Usage:
  npm run admin:create -- --username <name> [--role admin|reviewer] [--password-stdin]
  npm run admin:invite -- [--max-uses <n>] [--note <text>]`;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

async function createCommand(
  store: Store,
  values: Record<string, string | boolean | undefined>,
): Promise<void> {
  const username = typeof values.username === 'string' ? values.username.trim().toLowerCase() : '';
  const role = (values.role ?? 'admin') as AdminRole;
  if (!username || !ADMIN_ROLES.includes(role)) throw new UsageError();
  const generated = values['password-stdin'] !== true;
  const password = generated ? randomBytes(15).toString('base64url') : await readStdin();
  await createAdmin(store, { username, password, role, createdBy: null });
  const lines = [`Administrator "${username}" (${role}) created.`];
  if (generated)
    lines.push(`password: ${password}`, 'Keep this password now: it is not stored and not shown again.');
  let code = await activeOperatorCode(store);
  if (code === null) {
    code = await createOperatorCode(store, { note: 'created with the first administrator' });
    await audit(store, {
      adminId: null,
      action: 'invite.create',
      targetType: 'operator_invite_code',
      targetId: code,
    });
  }
  lines.push(`operator invite code: ${code}`, 'New users can register with this invite code.');
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function inviteCommand(
  store: Store,
  values: Record<string, string | boolean | undefined>,
): Promise<void> {
  const maxUses = values['max-uses'] === undefined ? null : Number(values['max-uses']);
  if (maxUses !== null && (!Number.isSafeInteger(maxUses) || maxUses < 1)) throw new UsageError();
  const note = typeof values.note === 'string' ? values.note : null;
  const code = await createOperatorCode(store, { note, maxUses });
  await audit(store, {
    adminId: null,
    action: 'invite.create',
    targetType: 'operator_invite_code',
    targetId: code,
    detail: { max_uses: maxUses, note },
  });
  process.stdout.write(`operator invite code: ${code}\n`);
}

class UsageError extends Error {}

const RUNNING_SERVER_HINT =
  'The server is running on this data folder. To create the first administrator without stopping it, open ' +
  'the one-time set-up link it printed in its log at start (/admin/setup#token=...; a restart prints a new ' +
  'one). Once an administrator exists, further administrators are made in the back office (/admin, ' +
  'Administrators) and operator invite codes by POST /api/admin/invite_codes.';

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      username: { type: 'string' },
      role: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      'max-uses': { type: 'string' },
      note: { type: 'string' },
    },
  });
  const command = positionals[0];
  if (command !== 'create' && command !== 'invite') throw new UsageError();
  const config = loadConfig();
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    embeddedThread: config.embeddedStoreThread,
  });
  try {
    if (command === 'create') await createCommand(store, values);
    else await inviteCommand(store, values);
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    process.stderr.write(`${USAGE}\n`);
  } else if (error instanceof FolderInUseError) {
    process.stderr.write(`${error.message}\n${RUNNING_SERVER_HINT}\n`);
  } else if (error instanceof AppError) {
    process.stderr.write(`${translate('en', error.key, error.params)}\n`);
  } else {
    process.stderr.write(`${(error as Error).message ?? String(error)}\n`);
  }
  process.exit(1);
});
