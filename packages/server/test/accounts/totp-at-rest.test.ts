// Authenticator secrets are sealed at rest (issue 41): after a user and an administrator enrol, no secret
// is found in the store - not in the embedded store's files (every byte of its folder, write-ahead log
// included) and not in any text column of any table (what a dump holds). A secret stored in the clear by
// an earlier version is sealed by the start-up step, and codes of it keep working.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Secret } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmAdminCode } from '../../src/admin/second-factor.ts';
import { acceptTotp } from '../../src/accounts/totp.ts';
import { findUserById } from '../../src/accounts/users.ts';
import { sealStoredTotpSecrets } from '../../src/accounts/totp-secrets.ts';
import { removeTempDirs } from '../helper.ts';
import { authenticatorCode } from '../helper-admin.ts';
import type { BackofficeTestApp, TestAdmin, TestUser } from '../backoffice/helpers.ts';
import { backofficeApp, call, expectOk, newAdmin, newUser } from '../backoffice/helpers.ts';

let test: BackofficeTestApp;

beforeAll(async () => {
  test = await backofficeApp();
}, 120_000);

afterAll(async () => {
  await test?.close();
  await removeTempDirs();
});

/** Enrols the user's authenticator through the security calls; returns the secret shown once. */
async function enrolUser(user: TestUser): Promise<string> {
  const started = expectOk<{ secret: string }>(
    await call(test.app, 'POST', '/safe/google/secret', {}, { token: user.token }),
  );
  expectOk(
    await call(
      test.app,
      'POST',
      '/safe/google/bind',
      { code: authenticatorCode(started.secret) },
      {
        token: user.token,
      },
    ),
  );
  return started.secret;
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Every text value of every table of the store's schema, as a dump would hold it. */
async function everyText(): Promise<string> {
  const { rows: columns } = await test.store.query<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and data_type in ('text', 'character varying', 'json', 'jsonb', 'bytea')`,
  );
  const parts: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const { rows } = await test.store.query<{ value: string | null }>(
      `select "${column}"::text as value from "${table}" where "${column}" is not null`,
    );
    for (const row of rows) if (row.value !== null) parts.push(row.value);
  }
  return parts.join('\n');
}

describe('authenticator secrets at rest', () => {
  let userSecret: string;
  let admin: TestAdmin;

  it('are in no text column of any table after a user and an administrator enrol', async () => {
    userSecret = await enrolUser(await newUser(test.store));
    admin = await newAdmin(test, 'admin');
    const pending = expectOk<{ secret: string }>(
      await call(test.app, 'POST', '/safe/google/secret', {}, { token: (await newUser(test.store)).token }),
    ).secret;
    const text = await everyText();
    expect(text.length).toBeGreaterThan(0);
    for (const secret of [userSecret, admin.secret, pending]) {
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(text.includes(secret), `a secret is stored in the clear`).toBe(false);
    }
    const { rows } = await test.store.query<{ sealed: string }>(
      `select totp_secret as sealed from users where totp_secret is not null
       union all select secret from admin_totp where secret is not null`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) expect(row.sealed).toMatch(/^[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
  });

  it('are in no byte of the embedded store’s files', async ({ skip }) => {
    const storeDir = test.store.dataDir;
    if (test.store.kind !== 'pglite' || storeDir === undefined) return skip('PostgreSQL: the dump above');
    await test.store.query('checkpoint');
    const files = [...(await filesUnder(storeDir)), ...(await filesUnder(test.dataDir))];
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const bytes = await readFile(file);
      for (const secret of [userSecret, admin.secret]) {
        expect(bytes.includes(Buffer.from(secret, 'latin1')), `${secret} in ${file}`).toBe(false);
      }
    }
  });

  it('stored in the clear before are sealed at the next start, and their codes still work', async () => {
    const user = await newUser(test.store);
    const plain = new Secret({ size: 20 }).base32;
    await test.store.query('update users set totp_secret = $2 where id = $1', [user.id, plain]);
    const adminPlain = new Secret({ size: 20 }).base32;
    await test.store.query('update admin_totp set secret = $2, last_step = null where admin_id = $1', [
      admin.id,
      adminPlain,
    ]);
    // The step the accounts area runs at every start, before the server answers anything.
    expect(await sealStoredTotpSecrets(test.store, test.app.accounts.secrets)).toBe(2);
    expect(await sealStoredTotpSecrets(test.store, test.app.accounts.secrets)).toBe(0);
    const { rows } = await test.store.query<{ user_secret: string; admin_secret: string }>(
      `select (select totp_secret from users where id = $1) as user_secret,
              (select secret from admin_totp where admin_id = $2) as admin_secret`,
      [user.id, admin.id],
    );
    expect(rows[0]?.user_secret).not.toContain(plain);
    expect(rows[0]?.user_secret).toContain(':');
    expect(rows[0]?.admin_secret).not.toContain(adminPlain);
    // The sealed secrets open: a code of each old secret is accepted once, a wrong one refused.
    const userRow = await findUserById(test.store, user.id);
    if (userRow === null || userRow.totp_secret === null) throw new Error('the user lost the secret');
    const code = authenticatorCode(plain);
    const wrong = code === '000000' ? '111111' : '000000';
    await expect(acceptTotp(test.app.accounts, userRow, wrong, userRow.totp_secret)).rejects.toMatchObject({
      key: 'totp.wrong',
    });
    await acceptTotp(test.app.accounts, userRow, code, userRow.totp_secret);
    await confirmAdminCode(test.store, test.app.accounts, {
      adminId: admin.id,
      code: authenticatorCode(adminPlain),
    });
  });
});
