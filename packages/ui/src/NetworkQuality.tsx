import { useTranslation } from 'react-i18next';
import { UI_NAMESPACE } from './strings.ts';
import styles from './NetworkQuality.module.css';

export type NetworkQualityLevel = 'good' | 'fair' | 'poor' | 'unknown';

export interface NetworkQualityProps {
  /** the engine's measure (packages/call media/networkQuality.ts) */
  quality: { level: NetworkQualityLevel; lossPercent: number | null; rttMs: number | null; jitterMs: number | null };
  className?: string;
}

const BARS = { good: 3, fair: 2, poor: 1, unknown: 0 } as const;

/**
 * The line's quality in the call, the same on both sides: bars and a word ("Network: good"),
 * so that it never rests on colour alone; the measures (loss, round trip, jitter) in its accessible
 * description and as data attributes. Not a live region: it changes every second or so, and the
 * "reconnecting" notice is what announces a cut.
 */
export function NetworkQuality({ quality, className }: NetworkQualityProps) {
  const { t: typed } = useTranslation(UI_NAMESPACE);
  // the strings are this package's (src/strings, `networkQuality.*`); each app types its catalogues, so untyped here
  const t = typed as unknown as (key: string, values?: Record<string, unknown>) => string;
  const bars = BARS[quality.level];
  const dash = '–';
  const details = t(`networkQuality.details`, {
    loss: quality.lossPercent ?? dash,
    rtt: quality.rttMs ?? dash,
    jitter: quality.jitterMs ?? dash,
  });
  return (
    <span
      className={`${styles.quality} ${className ?? ''}`}
      data-testid="network-quality"
      data-quality={quality.level}
      data-loss={quality.lossPercent ?? ''}
      data-rtt={quality.rttMs ?? ''}
      data-jitter={quality.jitterMs ?? ''}
      title={details}
    >
      <span className={styles.bars} data-level={quality.level} aria-hidden="true">
        {[1, 2, 3].map((n) => (
          <span key={n} className={styles.bar} data-on={n <= bars} />
        ))}
      </span>
      <span>
        {t(`networkQuality.label`)} {t(`networkQuality.${quality.level}`)}
      </span>
      <span className="visually-hidden">{details}</span>
    </span>
  );
}
