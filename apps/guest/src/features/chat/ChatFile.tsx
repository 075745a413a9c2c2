import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/index.ts';
import FileText from 'lucide-react/icons/file-text';
import { useCallEngine } from '../../state/callActions.ts';
import { chatPanelStyles as styles } from '@lobby/ui';

/**
 * A file in the guest's chat. The guest authenticates with a bearer token that an <img> or a link
 * cannot carry, so the file is read with the token (GET /api/files/{id}, which only gives a guest its own
 * call's files) and shown through a blob: URL, revoked when the message leaves the screen.
 */
export function ChatFile({ url, name, kind }: { url: string; name: string; kind: 'image' | 'document' }) {
  const { t } = useTranslation();
  const engine = useCallEngine();
  const [blobUrl, setBlobUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!engine) return;
    let revoked = false;
    let made: string | null = null;
    engine
      .fetchFile(url)
      .then((blob) => {
        if (revoked) return;
        made = URL.createObjectURL(blob);
        setBlobUrl(made);
      })
      .catch(() => {
        if (!revoked) setFailed(true);
      });
    return () => {
      revoked = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [engine, url]);

  if (failed) {
    return (
      <span className={styles.body} data-testid="chat-file" data-state="failed">
        <FileText size={16} aria-hidden="true" /> <bdi>{name}</bdi> — {t('ongoing.fileUnavailable')}
      </span>
    );
  }
  if (!blobUrl) {
    return (
      <span className={styles.body} data-testid="chat-file" data-state="loading" aria-busy="true">
        <FileText size={16} aria-hidden="true" /> <bdi>{name}</bdi>
      </span>
    );
  }
  return kind === 'image' ? (
    <a href={blobUrl} target="_blank" rel="noopener noreferrer" data-testid="chat-file" data-state="ready">
      <img className={styles.preview} src={blobUrl} alt={name} />
    </a>
  ) : (
    // a document is always downloaded, never rendered in our origin
    <a href={blobUrl} download={name} data-testid="chat-file" data-state="ready">
      <FileText size={16} aria-hidden="true" /> <bdi>{name}</bdi>
    </a>
  );
}
