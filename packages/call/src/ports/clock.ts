/**
 * Time, as the engines and the media modules read and wait for it (docs/architecture.md "Ports"): the
 * composition (../composition.ts) hands the browser's clock to every module; tests advance a fake one.
 */
export interface ClockPort {
  now(): number;
  /** runs `run` after `ms`; returns the function that cancels it */
  setTimeout(run: () => void, ms: number): () => void;
}
