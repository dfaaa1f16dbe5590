/**
 * Prints one plain closing line, `tests: N passed, N failed`, that any CI log reader
 * understands, after jest's own summary, and the slowest files (where the suite's time goes).
 */
const SLOWEST_SHOWN = 12;

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failedSuites = results.numFailedTestSuites + results.numRuntimeErrorTestSuites;
    const failed = results.numFailedTests + (failedSuites > 0 && results.numFailedTests === 0 ? failedSuites : 0);
    const slowest = results.testResults
      .map((file) => ({ path: file.testFilePath.replace(`${process.cwd()}/`, ''), ms: file.perfStats.runtime }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST_SHOWN)
      .map(({ path, ms }) => `  ${(ms / 1000).toFixed(0).padStart(5)} s  ${path}`);
    process.stdout.write(
      `\nslowest files:\n${slowest.join('\n')}\n` +
        `\ntests: ${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
    );
  }
}
module.exports = SummaryReporter;
