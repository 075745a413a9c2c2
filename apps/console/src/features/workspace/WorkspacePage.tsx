import { useTranslation } from 'react-i18next';
import { Header } from './Header.tsx';
import { QueuePanel } from '../queue/QueuePanel.tsx';
import { CallArea } from '../call/CallArea.tsx';
import styles from './Workspace.module.css';

/** The agent's workspace: header, the queue on the inline-start side, the call area. */
export function WorkspacePage() {
  const { t } = useTranslation();
  return (
    <div className={styles.workspace} data-screen="workspace">
      <a href="#call-area" className="skip-link">
        {t('app.skipToContent')}
      </a>
      <Header />
      <div className={styles.body}>
        <QueuePanel />
        <main id="call-area" className={styles.main} tabIndex={-1}>
          <CallArea />
        </main>
      </div>
    </div>
  );
}
