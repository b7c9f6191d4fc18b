// The seconds contracts' back office in real Chromium against a real server of its own: an administrator
// signs in (password, then an authenticator enrolled on the spot), changes a seconds option's ratio on the
// seconds contracts screen and sees the public seconds call answer it, and tries to fund the reserve with
// more than the house's change wallet holds: the confirmation dialog names the amount, the refusal is the
// server's translated message and the reserve is unchanged; then a user's one-second order settles on the
// recorded samples and shows in the settled orders with its proof. Not covered here: a successful funding
// (the house's change wallet is empty in this scenario; the server route tests cover it).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminScenario } from './admin-seed.ts';
import {
  signInEnrollingAuthenticator,
  startAdminConsole,
  type AdminConsole,
} from './support/admin-console.ts';

describe("the seconds contracts' back office", () => {
  let adminConsole: AdminConsole;
  let scenario: AdminScenario;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    adminConsole = await startAdminConsole('admin-micro', { MICRO_RESERVE: '1000000' });
    ({ scenario, page, problems } = adminConsole);
  });

  afterAll(async () => {
    await adminConsole?.close();
  });

  it('changes a ratio, and refuses a funding the house cannot pay with nothing changed', async () => {
    await signInEnrollingAuthenticator(page, scenario.server.baseURL);

    await page.getByTestId('admin-nav-micro').click();
    await page.waitForURL('**/admin/micro');
    const ratio = page.getByTestId('micro-ratio-0');
    await ratio.waitFor();
    expect(await ratio.inputValue()).toBe('8000');
    await ratio.fill('8100');
    await page.getByTestId('micro-seconds-save').click();
    await page.locator('.fx-toast.is-success').filter({ hasText: 'Saved.' }).first().waitFor();
    const seconds = (await fetch(`${scenario.server.baseURL}/api/microtrade/seconds`).then((response) =>
      response.json(),
    )) as { message: { seconds: { seconds: number; profit_ratio: string }[] } };
    expect(seconds.message.seconds[0]).toEqual({ seconds: 30, profit_ratio: '81' });

    const available = page.getByTestId('micro-reserve-available').first();
    await available.waitFor();
    const before = await available.textContent();
    // More than the house's change wallet holds (the demo puts 100,000 USDT there for the flash desk).
    await page.getByTestId('micro-fund-amount').fill('5000000');
    await page.getByTestId('micro-fund').click();
    await page.locator('.ant-modal-confirm').getByText('Move 5000000 USDT').waitFor();
    await page.getByTestId('micro-fund-confirm').click();
    await page
      .locator('.fx-toast.is-error')
      .filter({ hasText: "The house's change wallet does not hold this amount." })
      .first()
      .waitFor();
    expect(await available.textContent()).toBe(before);
    expect(problems).toEqual([]);
  }, 120_000);

  it('lists a settled order with its proof', async () => {
    const token = await page.evaluate(() => globalThis.sessionStorage.getItem('fairex_admin_token'));
    const post = async (path: string, auth: string, body: unknown) =>
      (await fetch(`${scenario.server.baseURL}/api${path}?lang=en`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((response) => response.json())) as { type: string; message: { id: number } };
    const options = {
      options: [
        { seconds: 1, profit_ratio_bp: 8_100 },
        { seconds: 30, profit_ratio_bp: 8_100 },
      ],
    };
    expect((await post('/backoffice/micro/seconds', token ?? '', options)).type).toBe('ok');
    const buyer = scenario.buyer.token;
    const moved = await post('/wallet/change', buyer, {
      from_field: 'change',
      to_field: 'micro',
      currency_id: 3,
      number: '100',
    });
    expect(moved.type).toBe('ok');
    const order = await post('/microtrade/submit', buyer, {
      match_id: 1,
      currency_id: 3,
      type: 1,
      seconds: 1,
      number: '10',
    });
    expect(order.type, JSON.stringify(order)).toBe('ok');
    // One second of life, then the next recorded sample settles it.
    await page.waitForTimeout(3_500);
    await page.reload();
    const proof = page.getByTestId(`micro-proof-${order.message.id}`);
    await proof.waitFor({ timeout: 20_000 });
    await proof.click();
    await page.getByTestId('micro-proof-body').filter({ hasText: 'fairex-micro-v2' }).waitFor();
    expect(problems).toEqual([]);
  }, 180_000);
});
