// The first administrator by the one-time set-up link a server start prints while there is none
// (admin/setup.ts, POST /api/admin/setup): the token is spent once, expires, dies once any administrator
// exists, and nothing is created without a live one. And the command line, when the running server holds
// the embedded database, says how to do it instead.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../src/admin/admins.ts';
import { issueSetupToken, setupLink } from '../../src/admin/setup.ts';
import { generateToken } from '../../src/auth/sessions.ts';
import { openStore } from '../../src/store/index.ts';
import { removeTempDirs, tempDir } from '../helper.ts';
import type { AccountsTestApp } from './helpers.ts';
import { accountsApp, call } from './helpers.ts';

const PASSWORD = 'first-admin-password';

let test: AccountsTestApp;

beforeAll(async () => {
  test = await accountsApp();
});

afterAll(async () => {
  await test?.close();
  await removeTempDirs();
});

async function adminCount(): Promise<number> {
  const { rows } = await test.store.query<{ n: number }>('select count(*)::int as n from admins');
  return rows[0]?.n ?? -1;
}

const setup = (token: string, username = 'founder', password = PASSWORD) =>
  call(test.app, '/admin/setup', { token, username, password });

const INVALID = {
  type: 'error',
  message: 'This set-up link is unknown, already used or expired. Restart the server to print a new one.',
};
const DONE = {
  type: 'error',
  message: 'An administrator already exists: sign in to the back office at /admin.',
};

// One exchange's life in order: no administrator, then one.
describe('the one-time set-up link', () => {
  it('puts the token in the fragment of the console page', () => {
    expect(setupLink('abc', 'http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080/admin/setup#token=abc');
  });

  it('creates nothing without a token a start issued', async () => {
    expect(await setup(generateToken())).toEqual(INVALID);
    expect(await call(test.app, '/admin/setup', { username: 'founder', password: PASSWORD })).toMatchObject({
      type: 'error',
    });
    expect(await adminCount()).toBe(0);
  });

  it('refuses an expired token', async () => {
    const token = await issueSetupToken(test.store);
    expect(token).toEqual(expect.any(String));
    await test.store.query(`update admin_setup_tokens set expires_at = now() - interval '1 second'`);
    expect(await setup(token ?? '')).toEqual(INVALID);
    expect(await adminCount()).toBe(0);
    // The next start's link replaces it.
    await issueSetupToken(test.store);
    const { rows } = await test.store.query<{ n: number }>(
      'select count(*)::int as n from admin_setup_tokens where expires_at <= now()',
    );
    expect(rows).toEqual([{ n: 0 }]);
  });

  it('keeps only the hash of a token', async () => {
    const token = (await issueSetupToken(test.store)) ?? '';
    const { rows } = await test.store.query<{ token_hash: string }>(
      'select token_hash from admin_setup_tokens',
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((row) => row.token_hash)).not.toContain(token);
  });

  it('does not spend the token on a refused password', async () => {
    const token = (await issueSetupToken(test.store)) ?? '';
    expect(await setup(token, 'founder', 'short')).toEqual({
      type: 'error',
      message: 'The administrator password must be at least 12 characters long.',
    });
    expect(await adminCount()).toBe(0);
    const reply = await setup(token);
    expect(reply.type).toBe('ok');
    expect(await adminCount()).toBe(1);
  });

  it('is spent once, and then no link works or is issued', async () => {
    const { rows } = await test.store.query<{ used: boolean }>(
      'select used_at is not null as used from admin_setup_tokens',
    );
    // The used token is kept as used; the unused ones died with the first administrator.
    expect(rows).toEqual([{ used: true }]);
    expect(await issueSetupToken(test.store)).toBeNull();
    expect(await setup(generateToken(), 'intruder')).toEqual(DONE);
    expect(await adminCount()).toBe(1);
  });
});

describe('the administrator the link makes', () => {
  let fresh: AccountsTestApp;

  beforeAll(async () => {
    fresh = await accountsApp();
  });

  afterAll(async () => {
    await fresh?.close();
  });

  it('signs in straight to the authenticator enrolment, with an operator invite code to give out', async () => {
    const token = (await issueSetupToken(fresh.store)) ?? '';
    const reply = await call(fresh.app, '/admin/setup', { token, username: 'Founder', password: PASSWORD });
    expect(reply).toMatchObject({
      type: 'ok',
      message: { admin: { username: 'founder', role: 'admin' }, invite_code: expect.any(String) },
    });
    const answer = reply.message as { token: string; invite_code: string };
    const session = await call(fresh.app, '/backoffice/session', {}, { token: answer.token, method: 'GET' });
    expect(session).toMatchObject({ type: 'ok', message: { second_factor: 'enrol' } });
    // The password works for later sign-ins.
    expect(
      (await call(fresh.app, '/admin/login', { username: 'founder', password: PASSWORD }, { ip: '10.9.9.9' }))
        .type,
    ).toBe('ok');
    const { rows } = await fresh.store.query<{ code: string }>(
      'select code from operator_invite_codes where disabled_at is null',
    );
    expect(rows).toEqual([{ code: answer.invite_code }]);
    const { rows: log } = await fresh.store.query<{ action: string }>(
      `select action from audit_log where action in ('admin.create', 'invite.create') order by id`,
    );
    expect(log.map((row) => row.action)).toEqual(['admin.create', 'invite.create']);
  });
});

describe('two set-up requests at once', () => {
  it('make exactly one administrator', async () => {
    const race = await accountsApp();
    try {
      const first = (await issueSetupToken(race.store)) ?? '';
      const second = (await issueSetupToken(race.store)) ?? '';
      const replies = await Promise.all([
        call(race.app, '/admin/setup', { token: first, username: 'alpha', password: PASSWORD }),
        call(race.app, '/admin/setup', { token: second, username: 'bravo', password: PASSWORD }),
      ]);
      expect(replies.map((reply) => reply.type).sort()).toEqual(['error', 'ok']);
      expect(replies.find((reply) => reply.type === 'error')).toEqual(DONE);
      const { rows } = await race.store.query('select username from admins');
      expect(rows).toHaveLength(1);
    } finally {
      await race.close();
    }
  });
});

describe('a link issued before an administrator was made another way', () => {
  it('is refused', async () => {
    const other = await accountsApp();
    try {
      const token = (await issueSetupToken(other.store)) ?? '';
      await createAdmin(other.store, { username: 'cli', password: PASSWORD, role: 'admin', createdBy: null });
      expect(await call(other.app, '/admin/setup', { token, username: 'late', password: PASSWORD })).toEqual(
        DONE,
      );
      const { rows } = await other.store.query<{ username: string }>('select username from admins');
      expect(rows).toEqual([{ username: 'cli' }]);
    } finally {
      await other.close();
    }
  });
});

describe('the command line while the server holds the embedded database', () => {
  it('points to the set-up link instead', async () => {
    const dataDir = await tempDir('fairex-cli-locked-');
    const holder = await openStore({ dataDir });
    try {
      const root = join(import.meta.dirname, '..', '..', '..', '..');
      const refused = await promisify(execFile)(
        process.execPath,
        [join(root, 'packages/server/src/admin/cli.ts'), 'create', '--username', 'root'],
        { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, cwd: root },
      ).catch((error: { stderr: string; code: number }) => error);
      expect(refused).toMatchObject({ code: 1 });
      expect((refused as { stderr: string }).stderr).toContain(
        `The data folder is in use by process ${process.pid}`,
      );
      expect((refused as { stderr: string }).stderr).toContain('/admin/setup#token=');
    } finally {
      await holder.close();
    }
  }, 60_000);
});
