// A test server's clock that a test can move forward: the server process loads clock-preload.ts, which adds
// the offset this object writes to its Date.now; browser pages get the same offset through an init script,
// so what the pages compute from the time (countdowns, when an appeal opens) agrees with the server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { ROOT } from './paths.ts';

export class ServerClock {
  readonly file: string;
  #offsetMs = 0;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'e2e-clock-offset');
    writeFileSync(this.file, '0');
  }

  /** The server settings that load the clock into the server process. */
  get env(): Record<string, string> {
    const preload = join(ROOT, 'e2e/support/clock-preload.ts');
    return { NODE_OPTIONS: `--import ${preload}`, E2E_CLOCK_FILE: this.file };
  }

  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** The server's now. */
  now(): number {
    return Date.now() + this.#offsetMs;
  }

  /** Moves the server's clock (and the pages' clocks, at their next read) forward. */
  async advance(ms: number, contexts: BrowserContext[]): Promise<void> {
    this.#offsetMs += ms;
    writeFileSync(this.file, String(this.#offsetMs));
    for (const context of contexts) {
      for (const page of context.pages()) {
        await page.evaluate(
          (offset) => localStorage.setItem('e2e_clock_offset', String(offset)),
          this.#offsetMs,
        );
      }
    }
    // The server reads the file at most every 100 ms; the P2P tick runs every second.
    await new Promise((resolve) => setTimeout(resolve, 300));
  }

  /** Makes a context's pages follow the offset. */
  static async follow(context: BrowserContext): Promise<void> {
    await context.addInitScript(() => {
      const realNow = Date.now.bind(Date);
      Date.now = () => realNow() + (Number(localStorage.getItem('e2e_clock_offset')) || 0);
    });
  }
}
