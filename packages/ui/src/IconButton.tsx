import type { ButtonHTMLAttributes, ReactNode } from 'react';
import styles from './IconButton.module.css';

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'aria-label'> {
  /** Accessible name: icon buttons have no visible text. */
  label: string;
  icon: ReactNode;
  tone?: 'default' | 'off' | 'danger';
  /** Show the label under the button (large layouts). */
  showLabel?: boolean;
}

/** A round call-control button (mute, camera, hang up). */
export function IconButton({
  label,
  icon,
  tone = 'default',
  showLabel,
  className,
  type = 'button',
  ...rest
}: IconButtonProps) {
  return (
    <span className={[styles.wrap, className].filter(Boolean).join(' ')}>
      <button type={type} aria-label={label} title={label} className={`${styles.button} ${styles[tone]}`} {...rest}>
        <span aria-hidden="true" className={styles.icon}>
          {icon}
        </span>
      </button>
      {showLabel ? (
        <span className={styles.caption} aria-hidden="true">
          {label}
        </span>
      ) : null}
    </span>
  );
}
