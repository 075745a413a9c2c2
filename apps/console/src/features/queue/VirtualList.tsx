import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A list that renders only the rows in view plus a few on each side (docs/performance.md "Waiting
 * guests"): a queue of thousands of waiting guests rendered whole cost the console seconds per change and
 * made every row tick each second; each drawn row also asks the server for its call's details.
 *
 * The view is a scroll container of its own (`className`, which must be held to its parent's height:
 * `flex: 1; min-block-size: 0`) around the `<ol>`. The rows above and below the window are stood for by
 * the `<ol>`'s padding. That padding sits inside the scroll container: once it was the scroll
 * container's own padding, which a box cannot shrink below, so the list grew as tall as every row
 * together and the page scrolled instead of the queue. Rows are keyed by the caller, so the same few
 * elements are kept while they stay in the window and the count stays bounded however far one scrolls.
 * Rows may grow (a details disclosure opens): they are measured again.
 *
 * Each row must render one element carrying `data-vkey={key}` (the list measures it) and should carry
 * aria-setsize / aria-posinset, so assistive technology still hears the whole length.
 */
export function VirtualList<T>({
  items,
  itemKey,
  estimate,
  gap,
  className,
  listClassName,
  label,
  children,
}: {
  items: readonly T[];
  itemKey: (item: T) => string;
  /** a row's height in px before it was measured */
  estimate: number;
  /** the CSS gap between rows in px (the list's flex gap) */
  gap: number;
  /** the scroll container (the view) */
  className?: string;
  /** the `<ol>` inside it */
  listClassName?: string;
  label?: string;
  children: (item: T, index: number) => ReactNode;
}) {
  const viewRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const heights = useRef(new Map<string, number>());
  const [view, setView] = useState({ top: 0, height: 0 });
  const [, setMeasured] = useState(0);

  const onScroll = useCallback(() => {
    const el = viewRef.current;
    if (el) setView({ top: el.scrollTop, height: el.clientHeight });
  }, []);

  // the view's own size (window resized, panel laid out)
  useLayoutEffect(() => {
    const el = viewRef.current;
    if (!el) return;
    onScroll();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(onScroll);
    observer.observe(el);
    return () => observer.disconnect();
  }, [onScroll]);

  // the rendered rows' heights; a change re-renders once with the corrected padding
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      let changed = false;
      for (const row of Array.from(el.children) as HTMLElement[]) {
        const key = row.dataset.vkey;
        if (key === undefined || row.offsetHeight === 0 || heights.current.get(key) === row.offsetHeight) continue;
        heights.current.set(key, row.offsetHeight);
        changed = true;
      }
      if (changed) setMeasured((n) => n + 1);
    };
    const observer = new ResizeObserver(measure);
    for (const row of Array.from(el.children)) observer.observe(row);
    return () => observer.disconnect();
  });

  const keys = items.map(itemKey);
  forgetLeft(heights.current, keys);
  const { first, last, before, after } = windowOf(
    keys.map((key) => heights.current.get(key) ?? estimate),
    gap,
    view,
  );
  return (
    <div ref={viewRef} className={className} onScroll={onScroll} data-testid="virtual-view">
      <ol ref={listRef} className={listClassName} aria-label={label} style={{ paddingBlockStart: before, paddingBlockEnd: after }}>
        {items.slice(first, last).map((item, i) => children(item, first + i))}
      </ol>
    </div>
  );
}

/** rows drawn beyond the visible ones on each side (smooth scrolling, keyboard focus moving on) */
export const OVERSCAN_ROWS = 3;
/** rows drawn before the view knows its height (first render, or no layout as in unit tests) */
export const UNMEASURED_ROWS = 10;

/** The measured heights of rows that left the list are dropped once they outnumber the rows listed. */
function forgetLeft(heights: Map<string, number>, keys: readonly string[]): void {
  if (heights.size <= keys.length * 2 + 100) return;
  const listed = new Set(keys);
  for (const key of heights.keys()) if (!listed.has(key)) heights.delete(key);
}

/**
 * Which rows [first, last) to draw for a scroll position, and the padding that stands for the others:
 * the rows that meet the view [top, top + height), and OVERSCAN_ROWS more on each side.
 * Exported for its unit test.
 */
export function windowOf(
  heights: readonly number[],
  gap: number,
  view: { top: number; height: number },
): { first: number; last: number; before: number; after: number } {
  if (view.height === 0) {
    const last = Math.min(heights.length, UNMEASURED_ROWS);
    return { first: 0, last, before: 0, after: sum(heights.slice(last), gap) };
  }
  const bottom = view.top + view.height;
  let visibleFirst = 0;
  let offset = 0;
  while (visibleFirst < heights.length - 1 && offset + heights[visibleFirst]! <= view.top) offset += heights[visibleFirst++]! + gap;
  let visibleLast = visibleFirst;
  while (visibleLast < heights.length && offset < bottom) offset += heights[visibleLast++]! + gap;
  const first = Math.max(0, visibleFirst - OVERSCAN_ROWS);
  const last = Math.min(heights.length, visibleLast + OVERSCAN_ROWS);
  return { first, last, before: sum(heights.slice(0, first), gap), after: sum(heights.slice(last), gap) };
}

function sum(heights: readonly number[], gap: number): number {
  return heights.reduce((total, h) => total + h + gap, 0);
}
