// Prints one plain closing line, `<tier>: N passed, N failed`, which CI log readers recognise, after
// Jest's own summary. The tier name comes from the reporter option. With AGUI_TEST_TOTALS_FILE set (by
// scripts/run-tests.sh) the line is also appended to that file, which prints every tier's totals at the end.
const { appendFileSync } = require('node:fs');

class PlainSummaryReporter {
  constructor(_globalConfig, options) {
    this.tier = (options && options.tier) || 'tests';
  }
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `${this.tier}: ${results.numPassedTests} passed, ${failed} failed\n`;
    const totalsFile = process.env.AGUI_TEST_TOTALS_FILE;
    if (totalsFile) appendFileSync(totalsFile, skipped ? line.replace('\n', `, ${skipped} skipped\n`) : line);
    // Written at exit so it comes after Jest's own summary and is the run's closing line.
    process.once('exit', () => process.stdout.write(line));
  }
}
module.exports = PlainSummaryReporter;
