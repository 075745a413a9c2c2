import type { ReactNode } from 'react';
import type { Screen } from '../../state/screens.ts';
import styles from './MessageScreen.module.css';

export interface MessageScreenProps {
  /** `data-screen` value (a Screen, or an app phase such as 'loading'). */
  screen: Screen | 'loading' | 'error' | 'not-found';
  icon?: ReactNode;
  tone?: 'neutral' | 'info' | 'warning' | 'danger' | 'success';
  title: ReactNode;
  body?: ReactNode;
  /** Extra content between the text and the actions. */
  children?: ReactNode;
  actions?: ReactNode;
  /** Image shown above the title instead of the icon (company-provided). */
  imageUrl?: string | null;
}

/** The centred card most screens use: icon or image, heading, text, content, actions. */
export function MessageScreen({ screen, icon, tone = 'neutral', title, body, children, actions, imageUrl }: MessageScreenProps) {
  return (
    <section className={styles.card} data-screen={screen} aria-labelledby={`${screen}-title`}>
      {imageUrl ? (
        <img className={styles.image} src={imageUrl} alt="" />
      ) : icon ? (
        <div className={`${styles.icon} ${styles[tone]}`} aria-hidden="true">
          {icon}
        </div>
      ) : null}
      {/* titles and bodies often carry the company's own texts, which may be in the other language */}
      <h1 id={`${screen}-title`} className={styles.title} dir="auto">
        {title}
      </h1>
      {body ? <div className={styles.body} dir="auto">{body}</div> : null}
      {children}
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </section>
  );
}
