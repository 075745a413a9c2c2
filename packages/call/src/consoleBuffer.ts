/**
 * The app's console output, kept in memory instead of printed (at most 110 entries; the app
 * silences the console). When a call stage fails, the last entries go to the server with the call-bug
 * report (POST /call-bug/by-guest, docs/api.md), so a failure on a guest's machine can be read afterwards.
 *
 * Loaded with the first screen (`@lobby/call/console`): small and without dependencies.
 */
export const CONSOLE_BUFFER_SIZE = 110;

export interface ConsoleEntry {
  /** epoch ms */
  at: number;
  level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  text: string;
}

const LEVELS = ['log', 'info', 'warn', 'error', 'debug'] as const;

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value); // a cycle
  }
}

export class ConsoleBuffer {
  readonly #size: number;
  #entries: ConsoleEntry[] = [];

  constructor(size = CONSOLE_BUFFER_SIZE) {
    this.#size = size;
  }

  push(level: ConsoleEntry['level'], args: unknown[], at = Date.now()): void {
    // one long line (a dumped SDP) must not crowd out the rest of the report
    this.#entries.push({ at, level, text: args.map(describe).join(' ').slice(0, 4000) });
    if (this.#entries.length > this.#size) this.#entries.splice(0, this.#entries.length - this.#size);
  }

  /** The kept entries, oldest first. */
  entries(): ConsoleEntry[] {
    return [...this.#entries];
  }
}

/** The app's one buffer (the engines read it for call-bug reports). */
export const consoleBuffer = new ConsoleBuffer();

/**
 * Routes `target`'s log, info, warn, error and debug into the buffer; with `silence` nothing is printed
 * any more (docs/operations.md §13), otherwise the output is printed too (development). Returns the undo.
 */
export function captureConsole(options: {
  silence: boolean;
  target?: Console;
  buffer?: ConsoleBuffer;
}): () => void {
  const target = options.target ?? console;
  const buffer = options.buffer ?? consoleBuffer;
  const originals = LEVELS.map((level) => [level, target[level].bind(target)] as const);
  for (const [level, original] of originals) {
    target[level] = (...args: unknown[]) => {
      buffer.push(level, args);
      if (!options.silence) original(...args);
    };
  }
  return () => {
    for (const [level, original] of originals) target[level] = original;
  };
}

/**
 * A page's set-up (docs/operations.md §13), first thing in both apps: the console's output is kept, not shown
 * (`print` in a development build), and readable as `__lobbyConsole()` by a person in devtools and by the
 * e2e tests' failure reports. Returns the undo.
 */
export function keepConsoleOutput(options: {
  print: boolean;
  target?: Console;
  scope?: DebugScope;
}): () => void {
  const undo = captureConsole({ silence: !options.print, target: options.target ?? console });
  const scope = options.scope ?? (globalThis as DebugScope);
  scope.__lobbyConsole = () => consoleBuffer.entries();
  return undo;
}

/** Where `__lobbyConsole` is installed (the page's window). */
export interface DebugScope {
  __lobbyConsole?: () => ConsoleEntry[];
}
