// The back-office screens' end-to-end set-up: the administrator scenario on a server of the file's own, one
// Chromium page at 1440 x 900 that collects page errors, and the first sign-in of the seeded administrator
// (password, then an authenticator enrolled on the spot and its first code).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startAdminScenario, type AdminScenario } from '../admin-seed.ts';
import { launchBrowser, newContext } from './browser.ts';

export interface AdminConsole {
  scenario: AdminScenario;
  browser: Browser;
  page: Page;
  /** Errors the page threw; a test expects none. */
  problems: string[];
  close(): Promise<void>;
}

/** Starts the scenario (`env`: extra server settings) in a fresh folder named after `name`, and a page. */
export async function startAdminConsole(
  name: string,
  env: Record<string, string> = {},
): Promise<AdminConsole> {
  const dataDir = await mkdtemp(join(tmpdir(), `fairex-${name}-e2e-`));
  const scenario = await startAdminScenario(dataDir, env);
  const browser = await launchBrowser();
  const context = await newContext(browser, { width: 1440, height: 900 });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return {
    scenario,
    browser,
    page,
    problems,
    async close() {
      await browser.close();
      await scenario.server.stop();
    },
  };
}

/** The seeded administrator's first sign-in, from the console's address to its dashboard. */
export async function signInEnrollingAuthenticator(page: Page, baseURL: string): Promise<void> {
  await page.goto(`${baseURL}/admin`);
  await page.waitForURL('**/admin/login');
  await page.getByTestId('admin-login-username').fill(ADMIN_USERNAME);
  await page.getByTestId('admin-login-password').fill(ADMIN_PASSWORD);
  await page.getByTestId('admin-login-submit').click();
  await enrolAuthenticator(page);
}

/** The enrolment step of a first sign-in: reads the shown secret, passes its first code, ends on the dashboard. */
export async function enrolAuthenticator(page: Page): Promise<void> {
  const secretText = page.getByTestId('admin-enrol-secret');
  await secretText.waitFor();
  const secret = ((await secretText.textContent()) ?? '').trim();
  const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  await page.getByTestId('admin-code-input').fill(code.generate());
  await page.getByTestId('admin-code-submit').click();
  await page.waitForURL('**/admin/dashboard');
}
