import { useTranslation } from 'react-i18next';
import Camera from 'lucide-react/icons/camera';
import ArrowRight from 'lucide-react/icons/arrow-right';
import ArrowLeft from 'lucide-react/icons/arrow-left';
import { useGuestStore } from '../../app/store.ts';
import { useCallActions } from '../../app/callActions.ts';
import { MessageScreen } from '../base/MessageScreen.tsx';
import { Button } from '../base/Button.tsx';
import { VideoTile } from '../base/VideoTile.tsx';
import styles from './PreviewScreen.module.css';

/** Device check before the call (company.previewScreen). The engine fills localStream. */
export function PreviewScreen() {
  const { t } = useTranslation();
  const actions = useCallActions();
  const localStream = useGuestStore((s) => s.localStream);
  const rtl = useGuestStore((s) => s.language) === 'ar';
  return (
    <MessageScreen
      screen="preview"
      title={t('preview.title')}
      body={<p>{t('preview.body')}</p>}
      actions={
        <Button block icon={rtl ? <ArrowLeft size={20} /> : <ArrowRight size={20} />} onClick={() => void actions.confirmPreview()} data-testid="continue-button">
          {t('preview.continue')}
        </Button>
      }
    >
      <VideoTile
        className={styles.preview}
        stream={localStream}
        muted
        mirrored
        peer="local"
        data-testid="local-video"
        placeholder={
          <span className={styles.empty}>
            <Camera size={30} aria-hidden="true" />
            <span>{t('preview.noCamera')}</span>
          </span>
        }
      />
    </MessageScreen>
  );
}
