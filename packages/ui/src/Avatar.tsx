import { useState, type ReactNode } from 'react';
import styles from './Avatar.module.css';

/**
 * A round avatar: the image when given, else the first letter of the name, else an icon. Decorative
 * (hidden from assistive technology) unless `imageAlt` names the person in the picture; an image that
 * fails to load falls back to the initial.
 */
export function Avatar({
  name,
  imageUrl,
  imageAlt,
  size = 96,
  fallbackIcon,
}: {
  name?: string | null;
  imageUrl?: string | null;
  /** the image's text alternative (the person's name), when the picture says something the page does not */
  imageAlt?: string;
  size?: number;
  fallbackIcon?: ReactNode;
}) {
  const initial = name?.trim().charAt(0).toUpperCase();
  const [failed, setFailed] = useState<string | null>(null);
  const image = imageUrl && failed !== imageUrl ? imageUrl : null;
  return (
    <span
      className={styles.avatar}
      data-has-image={image ? 'true' : undefined}
      style={{ inlineSize: size, blockSize: size, fontSize: size * 0.4 }}
      aria-hidden={image && imageAlt ? undefined : 'true'}
    >
      {image ? <img src={image} alt={imageAlt ?? ''} className={styles.image} onError={() => setFailed(image)} /> : (initial ?? fallbackIcon)}
    </span>
  );
}
