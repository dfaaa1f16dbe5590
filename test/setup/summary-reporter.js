/**
 * Prints one plain closing line, `tests: N passed, N failed`, that any CI log reader
 * understands, after jest's own summary.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failedSuites = results.numFailedTestSuites + results.numRuntimeErrorTestSuites;
    const failed = results.numFailedTests + (failedSuites > 0 && results.numFailedTests === 0 ? failedSuites : 0);
    process.stdout.write(
      `\ntests: ${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
    );
  }
}
module.exports = SummaryReporter;
