// Administrators: the command line that makes the first one (and an operator invite code), log-in with
// sessions of their own, roles, the real-name review (approve, reject with a reason, resubmit), the dev
// outbox, and the audit log that records every action.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.ts';
import { createAdmin } from '../../src/admin/admins.ts';
import { removeTempDirs, tempDir } from '../helper.ts';
import { passSecondFactor } from '../helper-admin.ts';
import type { AccountsTestApp, RegisteredUser } from './helpers.ts';
import { accountsApp, call, registerByEmail, uploadFile } from './helpers.ts';
import { makeJpeg, makePng } from './images.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const CLI = join(ROOT, 'packages/server/src/admin/cli.ts');

describe('the administrator command line', () => {
  // Six runs of the command line, each opening the embedded store: on a loaded machine more than a minute.
  it(
    'creates an administrator with a generated password and prints an operator invite code',
    { timeout: 240_000 },
    async () => {
      const dataDir = await tempDir('fairex-cli-');
      const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
      const first = await run(process.execPath, [CLI, 'create', '--username', 'Root'], { env, cwd: ROOT });
      expect(first.stdout).toContain('Administrator "root" (admin) created.');
      const password = /password: (\S+)/.exec(first.stdout)?.[1] ?? '';
      const code = /operator invite code: ([A-Z0-9]+)/.exec(first.stdout)?.[1] ?? '';
      expect(password).toHaveLength(20);
      expect(code).toMatch(/^[A-Z2-9]{8}$/);

      // A second administrator, password from standard input; the same invite code is still the active one.
      const second = await new Promise<string>((resolve, reject) => {
        const child = execFile(
          process.execPath,
          [CLI, 'create', '--username', 'reviewer1', '--role', 'reviewer', '--password-stdin'],
          { env, cwd: ROOT },
          (error, stdout) => (error ? reject(error) : resolve(stdout)),
        );
        child.stdin?.end('reviewer-password-123\n');
      });
      expect(second).not.toContain('password:');
      expect(second).toContain(`operator invite code: ${code}`);

      const refused = await run(process.execPath, [CLI, 'create', '--username', 'root'], {
        env,
        cwd: ROOT,
      }).catch((error: { stderr: string; code: number }) => error);
      expect(refused).toMatchObject({ code: 1, stderr: 'This username is already taken.\n' });
      const usage = await run(process.execPath, [CLI, 'launch'], { env, cwd: ROOT }).catch(
        (error: { stderr: string }) => error,
      );
      expect((usage as { stderr: string }).stderr).toContain('npm run admin:create');

      const invite = await run(process.execPath, [CLI, 'invite', '--max-uses', '3'], { env, cwd: ROOT });
      expect(invite.stdout).toMatch(/^operator invite code: [A-Z2-9]{8}\n$/);

      const store = await openStore({ dataDir });
      try {
        const { rows: admins } = await store.query('select username, role from admins order by id');
        expect(admins).toEqual([
          { username: 'root', role: 'admin' },
          { username: 'reviewer1', role: 'reviewer' },
        ]);
        const { rows: log } = await store.query('select admin_id, action from audit_log order by id');
        expect(log).toEqual([
          { admin_id: null, action: 'admin.create' },
          { admin_id: null, action: 'invite.create' },
          { admin_id: null, action: 'admin.create' },
          { admin_id: null, action: 'invite.create' },
        ]);
      } finally {
        await store.close();
      }
    },
  );
});

describe('the administrator API', () => {
  let test: AccountsTestApp;
  let adminToken: string;
  let reviewerToken: string;
  let user: RegisteredUser;

  beforeAll(async () => {
    test = await accountsApp();
    await createAdmin(test.store, {
      username: 'chief',
      password: 'chief-password-1',
      role: 'admin',
      createdBy: null,
    });
    await createAdmin(test.store, {
      username: 'checker',
      password: 'checker-password-1',
      role: 'reviewer',
      createdBy: null,
    });
    adminToken = (
      (await call(test.app, '/admin/login', { username: 'chief', password: 'chief-password-1' })).message as {
        token: string;
      }
    ).token;
    reviewerToken = (
      (await call(test.app, '/admin/login', { username: 'CHECKER', password: 'checker-password-1' }))
        .message as { token: string }
    ).token;
    // The administrator calls need sessions that passed the second factor, as the console's do.
    await passSecondFactor(test.app, adminToken);
    await passSecondFactor(test.app, reviewerToken);
    user = await registerByEmail(test);
  });

  afterAll(async () => {
    await test?.close();
    await removeTempDirs();
  });

  async function submit(name: string): Promise<void> {
    const photos: string[] = [];
    for (const image of [makePng(300, 200), await makeJpeg(640, 400), makePng(200, 300, [200, 100, 50])]) {
      photos.push((await uploadFile(test.app, user.token, image)).message as string);
    }
    const reply = await call(
      test.app,
      '/user/real_name',
      {
        name,
        card_id: '110101199001011234',
        front_pic: photos[0],
        reverse_pic: photos[1],
        hand_pic: photos[2],
      },
      { token: user.token },
    );
    expect(reply).toEqual({ type: 'ok', message: 'Submitted. Your verification is now under review.' });
  }

  it('keeps administrator and user sessions apart', async () => {
    expect(
      (await call(test.app, '/admin/me', {}, { token: adminToken, method: 'GET' })).message,
    ).toMatchObject({
      username: 'chief',
      role: 'admin',
    });
    expect((await call(test.app, '/user/info', {}, { token: adminToken, method: 'GET' })).type).toBe('999');
    expect((await call(test.app, '/admin/me', {}, { token: user.token, method: 'GET' })).type).toBe('999');
    expect(
      (await call(test.app, '/admin/login', { username: 'chief', password: 'wrong-password' })).message,
    ).toBe('The account or the password is wrong.');
  });

  it('rejects with a reason the user sees, then approves the resubmission', async () => {
    await submit('Zhang San');
    expect(
      (await call(test.app, '/user/center', {}, { token: user.token, method: 'GET' })).message,
    ).toMatchObject({
      review_status: 1,
      name: 'Zhang San',
      card_id: '11**************34',
      reject_reason: null,
    });
    const again = await call(
      test.app,
      '/user/real_name',
      { name: 'x', card_id: 'A1234', front_pic: 'a', reverse_pic: 'b', hand_pic: 'c' },
      { token: user.token },
    );
    expect(again.type).toBe('error');

    const list = (await call(test.app, '/admin/real_name/list', {}, { token: reviewerToken, method: 'GET' }))
      .message as {
      data: { id: number; account: string; name: string }[];
      total: number;
    };
    expect(list.total).toBe(1);
    const first = list.data[0];
    expect(first).toMatchObject({ account: user.account, name: 'Zhang San', status: 'pending' });
    const detail = (
      await call(
        test.app,
        '/admin/real_name/detail',
        { id: String(first?.id) },
        { token: reviewerToken, method: 'GET' },
      )
    ).message as { card_id: string; front_pic: string };
    expect(detail.card_id).toBe('110101199001011234');
    const photo = await test.app.inject({
      method: 'GET',
      url: detail.front_pic,
      headers: { authorization: reviewerToken },
    });
    expect(photo.headers['content-type']).toBe('image/png');

    expect(
      (await call(test.app, '/admin/real_name/reject', { id: first?.id }, { token: reviewerToken })).message,
    ).toBe('Reason is required.');
    const rejected = await call(
      test.app,
      '/admin/real_name/reject',
      { id: first?.id, reason: 'The photo is blurred.' },
      { token: reviewerToken },
    );
    expect(rejected).toEqual({ type: 'ok', message: 'The verification has been rejected.' });
    expect(
      (await call(test.app, '/admin/real_name/approve', { id: first?.id }, { token: reviewerToken })).message,
    ).toBe('This submission has already been decided.');
    expect(
      (await call(test.app, '/user/center', {}, { token: user.token, method: 'GET' })).message,
    ).toMatchObject({
      review_status: 0,
      reject_reason: 'The photo is blurred.',
    });

    await submit('Zhang San');
    const pending = (
      await call(
        test.app,
        '/admin/real_name/list',
        { status: 'pending' },
        { token: adminToken, method: 'GET' },
      )
    ).message as {
      data: { id: number }[];
    };
    const second = pending.data[0]?.id;
    expect(
      (await call(test.app, '/admin/real_name/approve', { id: second }, { token: adminToken })).type,
    ).toBe('ok');
    expect(
      (await call(test.app, '/user/info', {}, { token: user.token, method: 'GET' })).message,
    ).toMatchObject({ review_status: 2 });
    expect(
      (await call(test.app, '/user/center', {}, { token: user.token, method: 'GET' })).message,
    ).toMatchObject({
      review_status: 2,
      reject_reason: null,
    });
    expect(
      (await call(test.app, '/admin/real_name/approve', { id: 99999 }, { token: adminToken })).message,
    ).toBe('There is no such submission.');

    const { rows } = await test.store.query<{
      username: string | null;
      action: string;
      target_id: string | null;
    }>(
      `select a.username, l.action, l.target_id from audit_log l left join admins a on a.id = l.admin_id
        where l.action like 'real_name.%' order by l.id`,
    );
    expect(rows).toEqual([
      { username: 'checker', action: 'real_name.view', target_id: String(first?.id) },
      { username: 'checker', action: 'real_name.reject', target_id: String(first?.id) },
      { username: 'chief', action: 'real_name.approve', target_id: String(second) },
    ]);
  });

  it('shows the dev outbox and the audit log to administrators by role', async () => {
    const outbox = (
      await call(
        test.app,
        '/admin/outbox',
        { recipient: user.account },
        { token: reviewerToken, method: 'GET' },
      )
    ).message as {
      data: { body: string; status: string; channel: string }[];
    };
    expect(outbox.data[0]).toMatchObject({ status: 'outbox', channel: 'email' });
    expect(outbox.data[0]?.body).toMatch(/\d{6}/);
    expect((await call(test.app, '/admin/audit', {}, { token: reviewerToken, method: 'GET' })).message).toBe(
      'Your administrator role does not allow this.',
    );
    const audit = (await call(test.app, '/admin/audit', {}, { token: adminToken, method: 'GET' }))
      .message as {
      data: { action: string }[];
    };
    expect(audit.data.map((entry) => entry.action)).toContain('outbox.read');
  });

  it('makes operator invite codes and administrators, for the admin role only', async () => {
    expect(
      (await call(test.app, '/admin/invite_codes', { max_uses: 2 }, { token: reviewerToken })).type,
    ).toBe('error');
    const created = await call(
      test.app,
      '/admin/invite_codes',
      { max_uses: 2, note: 'launch' },
      { token: adminToken },
    );
    expect((created.message as { code: string }).code).toMatch(/^[A-Z2-9]{8}$/);
    const admin = await call(
      test.app,
      '/admin/admins',
      { username: 'helper2', password: 'short', role: 'reviewer' },
      { token: adminToken },
    );
    expect(admin.message).toBe('The administrator password must be at least 12 characters long.');
    const made = await call(
      test.app,
      '/admin/admins',
      { username: 'desk2', password: 'long-enough-pass', role: 'reviewer' },
      { token: adminToken },
    );
    expect(made.type).toBe('ok');
  });

  it('ends an administrator session at logout', async () => {
    const token = (
      (await call(test.app, '/admin/login', { username: 'chief', password: 'chief-password-1' })).message as {
        token: string;
      }
    ).token;
    expect((await call(test.app, '/admin/logout', {}, { token })).type).toBe('ok');
    expect((await call(test.app, '/admin/me', {}, { token, method: 'GET' })).type).toBe('999');
  });
});
