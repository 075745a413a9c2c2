import { afterEach, describe, expect, it, vi } from 'vitest';
import FailureLogsReporter, { firstErrorLines } from '../e2e/support/failureLogsReporter.ts';

type Case = Parameters<FailureLogsReporter['onTestEnd']>[0];
type Result = Parameters<FailureLogsReporter['onTestEnd']>[1];

const journey = (title: string) => ({ titlePath: () => ['', 'scale', 'a.spec.ts', title], expectedStatus: 'passed' }) as unknown as Case;
const failed = (message: string) =>
  ({ status: 'failed', retry: 0, attachments: [], errors: [{ message, location: { file: '/x/e2e/scale/a.spec.ts', line: 12, column: 3 } }] }) as unknown as Result;

describe('the failed journeys summary at the end of a run', () => {
  afterEach(() => vi.restoreAllMocks());

  it('keeps the first lines of the error without colour codes or blank lines', () => {
    const lines = firstErrorLines(failed('\u001b[31mError: boom\u001b[39m\n\nExpected: 1\nReceived: 2\n' + 'x\n'.repeat(20)));
    expect(lines.slice(0, 3)).toEqual(['Error: boom', 'Expected: 1', 'Received: 2']);
    expect(lines).toHaveLength(9);
    expect(lines.at(-1)).toBe('…');
  });

  it('prints every failure, first one first, after the run and only when one failed', () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
    const reporter = new FailureLogsReporter();
    reporter.onTestEnd(journey('first'), failed('Error: the cause'));
    reporter.onTestEnd(journey('passing'), { status: 'passed', retry: 0, attachments: [], errors: [] } as unknown as Result);
    reporter.onTestEnd(journey('second'), failed('Error: a consequence'));
    expect(out).toEqual([]);
    reporter.onEnd();
    const printed = out.join('');
    expect(printed).toContain('1) scale › a.spec.ts › first (failed, scale/a.spec.ts:12)\n     Error: the cause');
    expect(printed).toContain('2) scale › a.spec.ts › second');
    expect(printed.indexOf('the cause')).toBeLessThan(printed.indexOf('a consequence'));
    expect(printed).not.toContain('passing');

    out.length = 0;
    new FailureLogsReporter().onEnd();
    expect(out).toEqual([]);
  });
});
