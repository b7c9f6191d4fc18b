// Sums the JSON reports that every Vitest run of `npm test` writes under test-results/ and prints
// one closing line in the plain form 'Tests: N passed, N failed, N skipped'.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

type Report = {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
};

const folder = 'test-results';
const totals = { passed: 0, failed: 0, skipped: 0 };
const files = existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.json')) : [];
for (const name of files) {
  const report = JSON.parse(readFileSync(join(folder, name), 'utf8')) as Report;
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}
if (files.length === 0) process.exit(0);
console.log(`Tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
