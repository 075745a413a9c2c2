/**
 * Prints, for a journey that failed, the whole of its browsers' logs (the `browser-logs` attachment that
 * closeAll makes: console errors and what the apps kept, with times). The list reporter cuts a text
 * attachment after 300 characters, and CI's printed output is often all there is to find a cause from.
 */
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export default class FailureLogsReporter implements Reporter {
  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === test.expectedStatus) return;
    for (const attachment of result.attachments) {
      if (attachment.name !== 'browser-logs' || !attachment.body) continue;
      const title = test.titlePath().slice(1).join(' › ');
      process.stdout.write(`\n---- browser logs of the failed journey: ${title} (attempt ${result.retry + 1})\n`);
      process.stdout.write(`${attachment.body.toString()}\n---- end of browser logs\n`);
    }
  }

  printsToStdio(): boolean {
    return true;
  }
}
