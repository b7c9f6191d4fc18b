import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
/** Test output (server log, screenshots); ignored by git. */
export const ARTIFACTS_DIR = join(ROOT, 'artifacts');
export const SCREENSHOT_DIR = join(ARTIFACTS_DIR, 'screenshots');
