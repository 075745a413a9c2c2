// Small dependency-free SVG charts for the reports. Each has a title and an accessible summary; the
// numbers are also in the table beside them.
import type { ReactNode } from 'react';

export interface Series {
  label: string;
  color: string;
  values: number[];
}

const W = 640;
const H = 220;
const PAD = { top: 12, right: 12, bottom: 28, left: 36 };

function niceMax(v: number): number {
  if (v <= 4) return Math.max(1, Math.ceil(v));
  const p = 10 ** Math.floor(Math.log10(v));
  return Math.ceil(v / p) * p;
}

function Frame({ title, max, labels, children, unit }: { title: string; max: number; labels: string[]; children: ReactNode; unit?: string }) {
  const ticks = [0, max / 2, max];
  const innerH = H - PAD.top - PAD.bottom;
  const step = (W - PAD.left - PAD.right) / Math.max(1, labels.length);
  const every = Math.ceil(labels.length / 8);
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} style={{ inlineSize: '100%', blockSize: 'auto', direction: 'ltr' }}>
      {ticks.map((v) => {
        const y = PAD.top + innerH - (v / max) * innerH;
        return (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y} y2={y} stroke="var(--line)" />
            <text x={PAD.left - 6} y={y + 4} fontSize="11" textAnchor="end" fill="var(--ink-muted)">
              {Math.round(v * 10) / 10}
              {unit ?? ''}
            </text>
          </g>
        );
      })}
      {labels.map((l, i) =>
        i % every === 0 ? (
          <text key={l} x={PAD.left + step * i + step / 2} y={H - 8} fontSize="11" textAnchor="middle" fill="var(--ink-muted)">
            {l}
          </text>
        ) : null,
      )}
      {children}
    </svg>
  );
}

/** Stacked bars, one per label. */
export function StackedBars({ title, labels, series }: { title: string; labels: string[]; series: Series[] }) {
  const totals = labels.map((_, i) => series.reduce((s, x) => s + (x.values[i] ?? 0), 0));
  const max = niceMax(Math.max(0, ...totals));
  const innerH = H - PAD.top - PAD.bottom;
  const step = (W - PAD.left - PAD.right) / Math.max(1, labels.length);
  const bw = Math.max(4, Math.min(36, step * 0.6));
  return (
    <Frame title={title} max={max} labels={labels}>
      {labels.map((l, i) => {
        let y = PAD.top + innerH;
        return (
          <g key={l} data-day={l}>
            {series.map((s) => {
              const v = s.values[i] ?? 0;
              const h = (v / max) * innerH;
              y -= h;
              return v > 0 ? (
                <rect key={s.label} x={PAD.left + step * i + (step - bw) / 2} y={y} width={bw} height={h} fill={s.color} rx={2}>
                  <title>{`${l} · ${s.label}: ${v}`}</title>
                </rect>
              ) : null;
            })}
          </g>
        );
      })}
    </Frame>
  );
}

/** Lines with dots, one per series. */
export function Lines({ title, labels, series, unit }: { title: string; labels: string[]; series: Series[]; unit?: string }) {
  const max = niceMax(Math.max(0, ...series.flatMap((s) => s.values)));
  const innerH = H - PAD.top - PAD.bottom;
  const step = (W - PAD.left - PAD.right) / Math.max(1, labels.length);
  const x = (i: number) => PAD.left + step * i + step / 2;
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  return (
    <Frame title={title} max={max} labels={labels} unit={unit}>
      {series.map((s) => (
        <g key={s.label}>
          <polyline fill="none" stroke={s.color} strokeWidth={2} points={s.values.map((v, i) => `${x(i)},${y(v)}`).join(' ')} />
          {s.values.map((v, i) => (
            <circle key={i} cx={x(i)} cy={y(v)} r={3} fill={s.color}>
              <title>{`${labels[i] ?? ''} · ${s.label}: ${v}${unit ?? ''}`}</title>
            </circle>
          ))}
        </g>
      ))}
    </Frame>
  );
}

export function Legend({ series }: { series: Array<Pick<Series, 'label' | 'color'>> }) {
  return (
    <ul style={{ display: 'flex', gap: 16, listStyle: 'none', padding: 0, margin: 0, fontSize: '0.875rem' }}>
      {series.map((s) => (
        <li key={s.label} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
          <span aria-hidden="true" style={{ inlineSize: 12, blockSize: 12, borderRadius: 3, background: s.color }} />
          {s.label}
        </li>
      ))}
    </ul>
  );
}
