/**
 * Prints, for a journey that failed, the whole of its browsers' logs (the `browser-logs` attachment that
 * closeAll makes: console errors and what the apps kept, with times). The list reporter cuts a text
 * attachment after 300 characters, and CI's printed output is often all there is to find a cause from.
 *
 * At the end of the run it prints each failed journey's first error, a few lines each, after everything
 * else: ./scripts/test shows only the end of a failed stage's log, where the list reporter puts the last
 * failures' stacks, and the first failure (often the cause of the others) would be cut off.
 *
 * And, passed or not, the slowest journeys with their times: ./scripts/test prints that block for every
 * journey stage, so a run's printed output says where the suite's time goes.
 */
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** ANSI colour codes, which the list reporter leaves in error messages */
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const LINES_PER_FAILURE = 8;
const SLOWEST_SHOWN = 8;
/** The first line of the block ./scripts/test looks for in a stage's log. */
export const SLOWEST_HEADING = '==== the slowest journeys';

/** The `shown` longest of `times`, one line each: seconds, where, the title's start. */
export function slowestLines(times: { title: string; where: string; ms: number }[], shown = SLOWEST_SHOWN): string[] {
  return [...times]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, shown)
    .map((t) => `${(t.ms / 1000).toFixed(1).padStart(6)}s  ${t.where}  ${t.title.length > 70 ? `${t.title.slice(0, 70)}…` : t.title}`);
}

export function firstErrorLines(result: Pick<TestResult, 'errors'>, lines = LINES_PER_FAILURE): string[] {
  const message = result.errors[0]?.message ?? result.errors[0]?.value ?? '(no error message)';
  const kept = message
    .replace(ANSI, '')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  return kept.length > lines ? [...kept.slice(0, lines), '…'] : kept;
}

export default class FailureLogsReporter implements Reporter {
  private readonly failures: string[] = [];
  private readonly times: { title: string; where: string; ms: number }[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    this.times.push({ title: test.title, where: `${test.location.file.split('/').slice(-1)[0]}:${test.location.line}`, ms: result.duration });
    if (result.status === test.expectedStatus) return;
    const title = test.titlePath().slice(1).join(' › ');
    const where = result.errors[0]?.location;
    this.failures.push(
      [
        `${this.failures.length + 1}) ${title} (${result.status}${where ? `, ${where.file.split('/').slice(-2).join('/')}:${where.line}` : ''})`,
        ...firstErrorLines(result).map((l) => `     ${l}`),
      ].join('\n'),
    );
    for (const attachment of result.attachments) {
      if (attachment.name !== 'browser-logs' || !attachment.body) continue;
      process.stdout.write(`\n---- browser logs of the failed journey: ${title} (attempt ${result.retry + 1})\n`);
      process.stdout.write(`${attachment.body.toString()}\n---- end of browser logs\n`);
    }
  }

  onEnd(): void {
    if (this.times.length > 0) process.stdout.write(`\n${SLOWEST_HEADING} (${this.times.length} ran)\n${slowestLines(this.times).join('\n')}\n\n`);
    if (this.failures.length === 0) return;
    process.stdout.write(`\n==== the first error of each failed journey, in the order they failed\n${this.failures.join('\n')}\n`);
  }

  printsToStdio(): boolean {
    return true;
  }
}
