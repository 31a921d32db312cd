// Prints vitest's JSON report as per-database counts and one plain closing line:
// "Tests: N passed, N failed, N skipped".
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2] ?? '.vitest-report.json', 'utf8'));
const byDatabase = { pglite: { passed: 0, failed: 0 }, postgres: { passed: 0, failed: 0 }, none: { passed: 0, failed: 0 } };
for (const file of report.testResults ?? []) {
  for (const test of file.assertionResults ?? []) {
    const titles = (test.ancestorTitles ?? []).join(' ');
    const database = /\[pglite\]/.test(titles) ? 'pglite' : /\[postgres\]/.test(titles) ? 'postgres' : 'none';
    if (test.status === 'passed') byDatabase[database].passed += 1;
    if (test.status === 'failed') byDatabase[database].failed += 1;
  }
}
for (const [database, counts] of Object.entries(byDatabase)) {
  console.log(`  ${database === 'none' ? 'no database' : database}: ${counts.passed} passed, ${counts.failed} failed`);
}
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`Tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
process.exitCode = report.success && report.numFailedTests === 0 && report.numPassedTests > 0 ? 0 : 1;
