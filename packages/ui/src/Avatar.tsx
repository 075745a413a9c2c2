import type { ReactNode } from 'react';
import styles from './Avatar.module.css';

/** A round avatar: the image when given, else the first letter of the name, else an icon. */
export function Avatar({
  name,
  imageUrl,
  size = 96,
  fallbackIcon,
}: {
  name?: string | null;
  imageUrl?: string | null;
  size?: number;
  fallbackIcon?: ReactNode;
}) {
  const initial = name?.trim().charAt(0).toUpperCase();
  return (
    <span className={styles.avatar} data-has-image={imageUrl ? 'true' : undefined} style={{ inlineSize: size, blockSize: size, fontSize: size * 0.4 }} aria-hidden="true">
      {imageUrl ? <img src={imageUrl} alt="" className={styles.image} /> : (initial ?? fallbackIcon)}
    </span>
  );
}
