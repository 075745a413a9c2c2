import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A list that renders only the rows in (and near) view (issue 16): a queue of thousands of waiting guests
 * rendered whole cost the console seconds per change and made every row tick each second. The list is the
 * scroll container; rows above and below the window are replaced by padding of their measured height
 * (or the estimate until measured). Rows may grow (a details disclosure opens): they are measured again.
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
  label,
  children,
}: {
  items: readonly T[];
  itemKey: (item: T) => string;
  /** a row's height in px before it was measured */
  estimate: number;
  /** the CSS gap between rows in px (the list's flex gap) */
  gap: number;
  className?: string;
  label?: string;
  children: (item: T, index: number) => ReactNode;
}) {
  const ref = useRef<HTMLOListElement>(null);
  const heights = useRef(new Map<string, number>());
  const [view, setView] = useState({ top: 0, height: 0 });
  const [, setMeasured] = useState(0);

  const onScroll = useCallback(() => {
    const el = ref.current;
    if (el) setView({ top: el.scrollTop, height: el.clientHeight });
  }, []);

  // the list's own size (window resized, panel laid out)
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    onScroll();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(onScroll);
    observer.observe(el);
    return () => observer.disconnect();
  }, [onScroll]);

  // the rendered rows' heights; a change re-renders once with the corrected padding
  useLayoutEffect(() => {
    const el = ref.current;
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

  const { first, last, before, after } = windowOf(items.map((item) => heights.current.get(itemKey(item)) ?? estimate), gap, view);
  return (
    <ol
      ref={ref}
      className={className}
      aria-label={label}
      onScroll={onScroll}
      style={{ paddingBlockStart: before, paddingBlockEnd: `calc(${after}px + 12px)` }}
    >
      {items.slice(first, last).map((item, i) => children(item, first + i))}
    </ol>
  );
}

/** rows drawn beyond the visible ones on each side, in px (smooth scrolling, keyboard focus moving on) */
const OVERSCAN_PX = 600;
/** rows drawn before the list knows its height (first render, or no layout as in unit tests) */
const UNMEASURED_ROWS = 30;

/**
 * Which rows [first, last) to draw for a scroll position, and the padding that stands for the others.
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
  const from = view.top - OVERSCAN_PX;
  const to = view.top + view.height + OVERSCAN_PX;
  let first = 0;
  let offset = 0;
  while (first < heights.length && offset + heights[first]! < from) offset += heights[first++]! + gap;
  const before = offset;
  let last = first;
  while (last < heights.length && offset < to) offset += heights[last++]! + gap;
  return { first, last, before, after: sum(heights.slice(last), gap) };
}

function sum(heights: readonly number[], gap: number): number {
  return heights.reduce((total, h) => total + h + gap, 0);
}
