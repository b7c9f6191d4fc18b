// Test-only: loaded into a test server's process with `--import` (see clock.ts), it makes the process's
// Date.now run ahead of the real clock by the milliseconds written in the file E2E_CLOCK_FILE names, read
// again at most every 100 ms. The server takes every command time, expiry and code step from Date.now, so
// a test can let a payment window, an appeal wait or a product's days pass without waiting for them; its
// scheduler and accrual jobs see the later time exactly as they would see a real one. Never loaded otherwise.
import { readFileSync } from 'node:fs';

const file = process.env.E2E_CLOCK_FILE;
if (file !== undefined && file !== '') {
  const realNow = Date.now.bind(Date);
  let offsetMs = 0;
  let readAt = -Infinity;
  Date.now = () => {
    const now = realNow();
    if (now - readAt >= 100) {
      readAt = now;
      try {
        offsetMs = Number(readFileSync(file, 'utf8')) || 0;
      } catch {
        offsetMs = 0;
      }
    }
    return now + offsetMs;
  };
}
