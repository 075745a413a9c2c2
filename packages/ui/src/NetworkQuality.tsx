import { useTranslation } from 'react-i18next';
import styles from './NetworkQuality.module.css';

export type NetworkQualityLevel = 'good' | 'fair' | 'poor' | 'unknown';

export interface NetworkQualityProps {
  /** the engine's measure (packages/call media/networkQuality.ts) */
  quality: { level: NetworkQualityLevel; lossPercent: number | null; rttMs: number | null; jitterMs: number | null };
  /** where the app keeps the strings: `<keyPrefix>.label`, `.good`, `.fair`, `.poor`, `.unknown`, `.details` */
  keyPrefix: string;
  className?: string;
}

const BARS = { good: 3, fair: 2, poor: 1, unknown: 0 } as const;

/**
 * The line's quality in the call (issue 12), the same on both sides: bars and a word ("Network: good"),
 * so that it never rests on colour alone; the measures (loss, round trip, jitter) in its accessible
 * description and as data attributes. Not a live region: it changes every second or so, and the
 * "reconnecting" notice is what announces a cut.
 */
export function NetworkQuality({ quality, keyPrefix, className }: NetworkQualityProps) {
  const { t: typed } = useTranslation();
  // the keys are the app's (each app types its own catalogue), so they are looked up untyped here
  const t = typed as unknown as (key: string, values?: Record<string, unknown>) => string;
  const bars = BARS[quality.level];
  const dash = '–';
  const details = t(`${keyPrefix}.details`, {
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
        {t(`${keyPrefix}.label`)} {t(`${keyPrefix}.${quality.level}`)}
      </span>
      <span className="visually-hidden">{details}</span>
    </span>
  );
}
