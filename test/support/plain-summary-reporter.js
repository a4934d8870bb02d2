// Prints one plain closing line, `<tier>: N passed, N failed`, which CI log readers recognise, after
// Jest's own summary. The tier name comes from the reporter option.
class PlainSummaryReporter {
  constructor(_globalConfig, options) {
    this.tier = (options && options.tier) || 'tests';
  }
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `${this.tier}: ${results.numPassedTests} passed, ${failed} failed\n`;
    // Written at exit so it comes after Jest's own summary and is the run's closing line.
    process.once('exit', () => process.stdout.write(line));
  }
}
module.exports = PlainSummaryReporter;
