import { useTranslation } from '../../i18n/index.ts';
import { useGuestStore, useInCall } from '../../state/store.ts';

/**
 * Told while the call's media server is waited for (Janus down when the guest called: the call goes
 * through once it is back) or reconnected to (the media goes on meanwhile): never a silent wait.
 * Below those, the XMPP session reconnecting (ejabberd restarted): while it is down, a waiting guest is in
 * no agent's queue and the chat is cut, so that is said too. A page of the website taking the call back
 * from its previous page says so until the call is back (packages/call guest/callTakeBack.ts, docs/widget.md
 * "Moving between pages"), after the media server's troubles, which say more.
 */
export function MediaNotice() {
  const { t } = useTranslation();
  const media = useGuestStore((s) => s.mediaNotice);
  const takingCallBack = useGuestStore((s) => s.takingCallBack);
  const signallingDown = useInCall((s) => s.status?.connection.xmpp === false);
  const notice = media ?? (takingCallBack ? 'takingCallBack' : signallingDown ? 'signallingReconnecting' : null);
  if (!notice) return null;
  return (
    <p role="status" data-testid="media-notice" data-notice={notice} style={{ margin: '0 0 12px', padding: '8px 12px', borderRadius: 8, background: '#fff4d6', color: '#5c4200', fontWeight: 600 }}>
      {t(`mediaNotice.${notice}`)}
    </p>
  );
}
