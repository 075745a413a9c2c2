import { useTranslation } from '../../i18n/index.ts';
import LockKeyhole from 'lucide-react/icons/lock-keyhole';
import MonitorX from 'lucide-react/icons/monitor-x';
import VideoOff from 'lucide-react/icons/video-off';
import WifiOff from 'lucide-react/icons/wifi-off';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import { useGuestStore } from '../../state/store.ts';
import { MessageScreen } from '../base/MessageScreen.tsx';
import styles from './UnsupportedScreen.module.css';
import { Button } from '@lobby/ui';

/**
 * This page's address over https: the same host on HTTPS's default port (a deployment's nginx serves
 * HTTPS on 443; its plain-HTTP port is another one), path, query and fragment kept.
 */
export function secureAddress(location: Pick<Location, 'hostname' | 'pathname' | 'search' | 'hash'>): string {
  return `https://${location.hostname}${location.pathname}${location.search}${location.hash}`;
}

/** The page, the browser, the devices or the network cannot carry a call; says what to do about it. */
export function UnsupportedScreen() {
  const { t } = useTranslation();
  const reason = useGuestStore((s) => s.unsupportedReason) ?? 'browser';
  const secure = reason === 'insecure' ? secureAddress(window.location) : null;
  const content = {
    insecure: {
      icon: <LockKeyhole size={34} />,
      title: t('unsupported.insecureTitle'),
      body: t('unsupported.insecureBody'),
      steps: [t('unsupported.insecureStep1'), t('unsupported.insecureStep2')],
    },
    browser: {
      icon: <MonitorX size={34} />,
      title: t('unsupported.browserTitle'),
      body: t('unsupported.browserBody'),
      steps: [t('unsupported.browserStep1'), t('unsupported.browserStep2')],
    },
    media: {
      icon: <VideoOff size={34} />,
      title: t('unsupported.mediaTitle'),
      body: t('unsupported.mediaBody'),
      steps: [t('unsupported.mediaStep1'), t('unsupported.mediaStep2'), t('unsupported.mediaStep3')],
    },
    network: {
      icon: <WifiOff size={34} />,
      title: t('unsupported.networkTitle'),
      body: t('unsupported.networkBody'),
      steps: [t('unsupported.networkStep1'), t('unsupported.networkStep2')],
    },
  }[reason];
  return (
    <MessageScreen
      screen="unsupported"
      tone="warning"
      icon={content.icon}
      title={content.title}
      body={
        <>
          <p data-unsupported-reason={reason}>{content.body}</p>
          {secure ? (
            <p className={styles.address} dir="ltr">
              <a href={secure}>{secure}</a>
            </p>
          ) : null}
        </>
      }
      actions={
        secure ? (
          <Button block icon={<LockKeyhole size={20} />} onClick={() => window.location.assign(secure)}>
            {t('unsupported.insecureOpen')}
          </Button>
        ) : (
          <Button block variant="secondary" icon={<RefreshCw size={20} />} onClick={() => window.location.reload()} data-testid="reload-button">
            {t('unsupported.retry')}
          </Button>
        )
      }
    >
      <div className={styles.steps}>
        <h2 className={styles.heading}>{t('unsupported.whatToDo')}</h2>
        <ol className={styles.list}>
          {content.steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </div>
    </MessageScreen>
  );
}
