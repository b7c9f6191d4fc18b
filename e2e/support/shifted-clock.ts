// Preloaded into a server process (NODE_OPTIONS=--import) by the products end-to-end tests, which need days
// to pass: Date.now() runs ahead of the real clock by the number of milliseconds written in the file named by
// FAIREX_E2E_CLOCK_FILE. The file is read every 100 ms; the offset only grows, so the engine's command time
// never goes back. Nothing else of the server changes: its scheduler, accrual job and engine runner all read
// Date.now(), so they see the later day exactly as they would see a real one.
import { readFileSync } from 'node:fs';

const file = process.env.FAIREX_E2E_CLOCK_FILE;

if (file !== undefined && file !== '') {
  const realNow = Date.now.bind(Date);
  let offset = 0;
  const read = () => {
    try {
      const value = Number(readFileSync(file, 'utf8').trim());
      if (Number.isSafeInteger(value) && value > offset) offset = value;
    } catch {
      // No file yet: no offset.
    }
  };
  read();
  setInterval(read, 100).unref();
  Date.now = () => realNow() + offset;
}
