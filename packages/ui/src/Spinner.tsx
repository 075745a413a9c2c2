import styles from './Spinner.module.css';

/** A decorative spinner; pair it with visible or visually hidden text. */
export function Spinner({ size = 40 }: { size?: number }) {
  return <span className={styles.spinner} style={{ inlineSize: size, blockSize: size }} aria-hidden="true" />;
}
