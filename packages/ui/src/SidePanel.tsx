import { useRef, type HTMLAttributes, type ReactNode } from 'react';
import X from 'lucide-react/icons/x';
import { usePanelDismiss } from './usePanelDismiss.ts';
import styles from './SidePanel.module.css';

export interface SidePanelProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  /** The panel's heading (its accessible name unless aria-label says otherwise). */
  title: ReactNode;
  /** The close button's accessible name. */
  closeLabel: string;
  onClose: () => void;
  /** the id of the button that opened the panel: the focus goes back to it when the panel closes */
  openerId?: string;
  'data-testid'?: string;
  children: ReactNode;
}

/**
 * A panel over the call's stage (camera and sound, the agent's settings): heading, close, a scrolling body.
 * Escape anywhere in the call closes it (usePanelDismiss).
 */
export function SidePanel({ title, closeLabel, onClose, openerId, children, ...rest }: SidePanelProps) {
  const ref = useRef<HTMLElement>(null);
  const close = usePanelDismiss(ref, onClose, openerId);
  return (
    <aside ref={ref} className={styles.panel} {...rest}>
      <header className={styles.head}>
        <h2 className={styles.title} id={rest['aria-labelledby']}>
          {title}
        </h2>
        <button type="button" className={`${styles.iconButton} ${styles.close}`} aria-label={closeLabel} onClick={close}>
          <X size={20} aria-hidden="true" />
        </button>
      </header>
      <div className={styles.body}>{children}</div>
    </aside>
  );
}

export interface DeviceSelectProps {
  label: string;
  devices: readonly MediaDeviceInfo[];
  /** the chosen deviceId ('' = the system default) */
  value: string;
  onChange: (deviceId: string) => void;
  /** a device without a label (no permission yet) is named "{unnamed} {n}" */
  unnamed: string;
  /** speakers: the system's 'default' entry stands for '' */
  defaultIsEmpty?: boolean;
  disabled?: boolean;
  'data-testid'?: string;
}

/** One kind of device (camera, microphone, speaker) to choose from, as a labelled select. */
export function DeviceSelect({
  label,
  devices,
  value,
  onChange,
  unnamed,
  defaultIsEmpty,
  disabled,
  ...rest
}: DeviceSelectProps) {
  return (
    <label className={styles.field}>
      {label}
      <select
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        data-testid={rest['data-testid']}
      >
        {devices.map((d, i) => (
          <option key={d.deviceId || i} value={defaultIsEmpty && d.deviceId === 'default' ? '' : d.deviceId}>
            {d.label || `${unnamed} ${i + 1}`}
          </option>
        ))}
      </select>
    </label>
  );
}
