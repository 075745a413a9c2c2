import type { ButtonHTMLAttributes, ReactNode } from 'react';
import styles from './Button.module.css';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost';
  size?: 'md' | 'lg';
  icon?: ReactNode;
  /** Second line under the label (large buttons). */
  hint?: ReactNode;
  block?: boolean;
}

/** The app's text button: large touch target, visible focus ring, icon on the inline-start side. */
export function Button({
  variant = 'primary',
  size = 'md',
  icon,
  hint,
  block,
  className,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  const classes = [styles.button, styles[variant], styles[size], block ? styles.block : '', hint ? styles.withHint : '', className]
    .filter(Boolean)
    .join(' ');
  return (
    <button type={type} className={classes} {...rest}>
      {icon ? (
        <span className={styles.icon} aria-hidden="true">
          {icon}
        </span>
      ) : null}
      <span className={styles.text}>
        <span className={styles.label}>{children}</span>
        {hint ? <span className={styles.hint}>{hint}</span> : null}
      </span>
    </button>
  );
}
