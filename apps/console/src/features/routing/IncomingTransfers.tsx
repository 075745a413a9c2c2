import { useTranslation } from 'react-i18next';
import PhoneForwarded from 'lucide-react/icons/phone-forwarded';
import { useConsoleStore } from '../../state/store.ts';
import { useTransfers } from '../../state/store.ts';
import { useDesk } from '../../state/agentActions.ts';
import styles from './routing.module.css';

/** Calls other agents hand to this agent, above the queue, each with Take call. */
export function IncomingTransfers() {
  const { t } = useTranslation('routing');
  const incoming = useTransfers((s) => s.incoming);
  const engine = useDesk();
  const busy = useConsoleStore((s) => s.activeCall !== null);
  const setError = useConsoleStore((s) => s.setError);
  if (!incoming.length || !engine) return null;
  return (
    <section className={styles.transfers} aria-labelledby="transfers-title">
      <h3 id="transfers-title" className={styles.transfersTitle}>
        {t('transfersTitle')}
      </h3>
      <ul className={styles.transferList}>
        {incoming.map((tr) => (
          <li key={tr.id} className={styles.transferItem} data-testid="incoming-transfer" data-call-id={tr.callId}>
            <PhoneForwarded size={16} aria-hidden="true" />
            <span className={styles.transferText}>{t('transferFrom', { guest: tr.guestUsername, agent: tr.fromName })}</span>
            <button
              type="button"
              className={styles.take}
              disabled={busy}
              onClick={() => void engine.acceptTransfer(tr.id).catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))}
              data-testid="accept-transfer-button"
            >
              {t('takeCall')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
