// The first administrator of a fresh exchange, made while the server runs: its first start writes a
// one-time set-up link to the log; the link's page takes a username and a password, shows the operator
// invite code, and hands over to the authenticator enrolment; the same link then no longer works.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolAuthenticator } from './support/admin-console.ts';
import { launchBrowser, newContext } from './support/browser.ts';
import { newDataDir, startServer, type ServerProcess } from './support/server-process.ts';

const LINK = /http:\/\/[^\s"]+\/admin\/setup#token=[A-Za-z0-9_-]+/g;

describe('the set-up link of a fresh exchange', () => {
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer(await newDataDir(), { MARKET_MAKER: 'off' });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function printedLinks(): Promise<string[]> {
    for (let attempt = 0; attempt < 80; attempt += 1) {
      const links = server.log().match(LINK);
      if (links !== null) return links;
      await sleep(250);
    }
    throw new Error(`no set-up link in the log:\n${server.log()}`);
  }

  it('creates the first administrator, who then enrols an authenticator', async () => {
    const links = await printedLinks();
    expect(links).toHaveLength(1);
    const link = links[0] ?? '';
    // The link names this server.
    expect(link.startsWith(`${server.baseURL}/admin/setup#token=`)).toBe(true);

    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(link);
    await page.getByTestId('admin-setup-username').fill('founder');
    await page.getByTestId('admin-setup-password').fill('founder-password-1');
    await page.getByTestId('admin-setup-confirm').fill('founder-password-1');
    await page.getByTestId('admin-setup-submit').click();
    const invite = page.getByTestId('admin-setup-invite-code');
    await invite.waitFor();
    expect(((await invite.textContent()) ?? '').trim()).toMatch(/^[A-Z2-9]{8}$/);
    // The spent token leaves the address bar.
    expect(page.url()).toBe(`${server.baseURL}/admin/setup`);

    await page.getByTestId('admin-setup-next').click();
    await enrolAuthenticator(page);
    await context.close();
  });

  it('does not work a second time', async () => {
    const [link] = await printedLinks();
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(link ?? '');
    await page.getByTestId('admin-setup-username').fill('intruder');
    await page.getByTestId('admin-setup-password').fill('intruder-password-1');
    await page.getByTestId('admin-setup-confirm').fill('intruder-password-1');
    await page.getByTestId('admin-setup-submit').click();
    await page.getByTestId('admin-setup-error').getByText('An administrator already exists').waitFor();
    await context.close();
  });

  it('is not offered without a link', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.baseURL}/admin/setup`);
    await page.getByTestId('admin-setup-no-token').waitFor();
    expect(await page.getByTestId('admin-setup-username').count()).toBe(0);
    await context.close();
  });
});
