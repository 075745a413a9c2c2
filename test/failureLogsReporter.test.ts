import { afterEach, describe, expect, it, vi } from 'vitest';
import FailureLogsReporter, { firstErrorLines, SLOWEST_HEADING, slowestLines } from '../e2e/support/failureLogsReporter.ts';

type Case = Parameters<FailureLogsReporter['onTestEnd']>[0];
type Result = Parameters<FailureLogsReporter['onTestEnd']>[1];

const journey = (title: string) =>
  ({ title, titlePath: () => ['', 'scale', 'a.spec.ts', title], location: { file: '/x/e2e/scale/a.spec.ts', line: 7 }, expectedStatus: 'passed' }) as unknown as Case;
const failed = (message: string) =>
  ({ status: 'failed', retry: 0, duration: 1000, attachments: [], errors: [{ message, location: { file: '/x/e2e/scale/a.spec.ts', line: 12, column: 3 } }] }) as unknown as Result;

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
    reporter.onTestEnd(journey('passing'), { status: 'passed', retry: 0, duration: 500, attachments: [], errors: [] } as unknown as Result);
    reporter.onTestEnd(journey('second'), failed('Error: a consequence'));
    expect(out).toEqual([]);
    reporter.onEnd();
    const printed = out.join('');
    expect(printed).toContain('1) scale › a.spec.ts › first (failed, scale/a.spec.ts:12)\n     Error: the cause');
    expect(printed).toContain('2) scale › a.spec.ts › second');
    expect(printed.indexOf('the cause')).toBeLessThan(printed.indexOf('a consequence'));
    expect(printed.slice(printed.indexOf('1) scale'))).not.toContain('passing');

    out.length = 0;
    new FailureLogsReporter().onEnd();
    expect(out).toEqual([]);
  });
});

describe('the slowest journeys at the end of a run', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists the longest first, with seconds, file and line, and cuts a long title', () => {
    const times = [
      { title: 'quick', where: 'a.spec.ts:3', ms: 1200 },
      { title: 'x'.repeat(90), where: 'b.spec.ts:9', ms: 65_400 },
      { title: 'middle', where: 'c.spec.ts:1', ms: 20_000 },
    ];
    const lines = slowestLines(times, 2);
    expect(lines).toEqual(['  65.4s  b.spec.ts:9  ' + 'x'.repeat(70) + '…', '  20.0s  c.spec.ts:1  middle']);
  });

  it('is printed after a run that passed, under the heading ./scripts/test looks for', () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
    const reporter = new FailureLogsReporter();
    reporter.onTestEnd(journey('slow one'), { status: 'passed', retry: 0, duration: 9000, attachments: [], errors: [] } as unknown as Result);
    reporter.onEnd();
    expect(out.join('')).toContain(`${SLOWEST_HEADING} (1 ran)\n   9.0s  a.spec.ts:7  slow one\n`);
  });
});
