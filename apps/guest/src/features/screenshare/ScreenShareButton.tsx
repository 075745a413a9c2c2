import { useState } from 'react';
import { useTranslation } from '../../i18n/index.ts';
import MonitorUp from 'lucide-react/icons/monitor-up';
import MonitorX from 'lucide-react/icons/monitor-x';
import { useInCall } from '../../state/store.ts';
import { IconButton } from '@lobby/ui';

/** Shares the screen as a second publisher, or stops sharing. Hidden where the browser cannot share. */
export function ScreenShareButton() {
  const { t } = useTranslation(['translation', 'ui']);
  const engine = useInCall((s) => s.engine);
  const sharing = useInCall((s) => !!s.status?.screenShare);
  const [busy, setBusy] = useState(false);
  if (!engine || typeof navigator === 'undefined' || !navigator.mediaDevices?.getDisplayMedia) return null;
  const toggle = async () => {
    setBusy(true);
    try {
      if (sharing) await engine.stopScreenShare();
      else await engine.startScreenShare();
    } catch {
      // permission refused or cancelled: nothing is shared, the button says so
    } finally {
      setBusy(false);
    }
  };
  return (
    <IconButton
      label={sharing ? t('ui:call.stopSharing') : t('ui:call.shareScreen')}
      icon={sharing ? <MonitorX size={24} /> : <MonitorUp size={24} />}
      tone={sharing ? 'off' : 'default'}
      disabled={busy}
      onClick={() => void toggle()}
      data-testid="screen-share-button"
      data-sharing={sharing}
    />
  );
}
