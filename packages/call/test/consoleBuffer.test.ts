import { describe, expect, it, vi } from 'vitest';
import {
  CONSOLE_BUFFER_SIZE,
  ConsoleBuffer,
  captureConsole,
  keepConsoleOutput,
  type DebugScope,
} from '../src/consoleBuffer.ts';

function fakeConsole() {
  const printed: string[] = [];
  const make =
    (level: string) =>
    (...args: unknown[]) =>
      printed.push(`${level} ${args.join(' ')}`);
  const target = {
    log: make('log'),
    info: make('info'),
    warn: make('warn'),
    error: make('error'),
    debug: make('debug'),
  };
  return { target: target as unknown as Console, printed };
}

describe('console buffer', () => {
  it('when more than 110 entries are written, then only the last 110 are kept, oldest first', () => {
    const buffer = new ConsoleBuffer();
    for (let i = 0; i < 150; i++) buffer.push('log', [`line ${i}`], i);
    const entries = buffer.entries();
    expect(CONSOLE_BUFFER_SIZE).toBe(110);
    expect(entries).toHaveLength(110);
    expect(entries[0]).toEqual({ at: 40, level: 'log', text: 'line 40' });
    expect(entries.at(-1)?.text).toBe('line 149');
  });

  it('when the console is captured silently, then nothing is printed and everything is kept; undone, printing is back', () => {
    const { target, printed } = fakeConsole();
    const buffer = new ConsoleBuffer();
    const undo = captureConsole({ silence: true, target, buffer });
    target.warn('janus', { code: 458 });
    target.error(new Error('Lost connection'));
    expect(printed).toEqual([]);
    expect(buffer.entries().map((e) => `${e.level} ${e.text}`)).toEqual([
      'warn janus {"code":458}',
      'error Error: Lost connection',
    ]);
    undo();
    target.log('after');
    expect(printed).toEqual(['log after']);
    expect(buffer.entries()).toHaveLength(2);
  });

  it('when not silenced (development), then output is kept and printed', () => {
    const { target, printed } = fakeConsole();
    const buffer = new ConsoleBuffer();
    captureConsole({ silence: false, target, buffer });
    target.info('hello');
    expect(printed).toEqual(['info hello']);
    expect(buffer.entries()).toHaveLength(1);
    vi.restoreAllMocks();
  });

  it('when a page keeps its console output (production), then nothing prints and __lobbyConsole() reads the kept entries', () => {
    const { target, printed } = fakeConsole();
    const scope: DebugScope = {};
    const undo = keepConsoleOutput({ print: false, target, scope });
    target.error('call stage failed: publish');
    expect(printed).toEqual([]);
    expect(scope.__lobbyConsole?.().at(-1)).toMatchObject({
      level: 'error',
      text: 'call stage failed: publish',
    });
    undo();
  });
});
