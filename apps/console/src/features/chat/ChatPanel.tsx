import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Paperclip from 'lucide-react/icons/paperclip';
import Send from 'lucide-react/icons/send';
import X from 'lucide-react/icons/x';
import FileText from 'lucide-react/icons/file-text';
import { NONE, useAgentInCall as useInCall } from '../call/agentInCall.ts';
import { safeFileUrl, chatPanelStyles as styles } from '@lobby/ui';

/** The call's chat: messages newest first, text and files (images previewed, others linked). */
export function ChatPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const messages = useInCall((s) => s.status?.chatMessages ?? NONE);
  const engine = useInCall((s) => s.engine);
  const [text, setText] = useState('');
  const [uploading, setUploading] = useState(false);
  const [failed, setFailed] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    engine?.sendChat(text);
    setText('');
  };

  const attach = async (file: File | undefined) => {
    if (!file || !engine) return;
    setUploading(true);
    setFailed(false);
    try {
      await engine.sendFile(file);
    } catch {
      setFailed(true);
    } finally {
      setUploading(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  return (
    <aside className={styles.panel} data-testid="chat-panel" aria-label={t('inCall.chat')}>
      <header className={styles.head}>
        <h2 className={styles.title}>{t('inCall.chat')}</h2>
        <button type="button" className={styles.close} aria-label={t('inCall.closeChat')} onClick={onClose}>
          <X size={20} aria-hidden="true" />
        </button>
      </header>
      <form className={styles.compose} onSubmit={submit}>
        <button
          type="button"
          className={styles.attach}
          aria-label={t('inCall.attachFile')}
          title={t('inCall.attachFile')}
          disabled={uploading}
          onClick={() => fileInput.current?.click()}
        >
          <Paperclip size={18} aria-hidden="true" />
        </button>
        <input
          ref={fileInput}
          type="file"
          hidden
          accept="image/png,image/jpeg,image/webp,application/pdf"
          data-testid="chat-file-input"
          onChange={(e) => void attach(e.target.files?.[0])}
        />
        <input
          className={styles.input}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('inCall.typeMessage')}
          aria-label={t('inCall.typeMessage')}
          maxLength={2000}
          data-testid="chat-input"
        />
        <button type="submit" className={styles.send} aria-label={t('inCall.send')} data-testid="chat-send">
          <Send size={18} aria-hidden="true" />
        </button>
      </form>
      {uploading ? <p className={styles.note}>{t('inCall.uploading')}</p> : null}
      {failed ? (
        <p className={styles.note} role="alert">
          {t('inCall.uploadFailed')}
        </p>
      ) : null}
      <ol className={styles.list} aria-live="polite" data-testid="chat-messages">
        {messages.length === 0 ? <li className={styles.empty}>{t('inCall.noMessages')}</li> : null}
        {messages.map((m) => {
          const url = m.file ? safeFileUrl(m.file.url) : null;
          return (
            <li
              key={m.id}
              className={`${styles.message} ${m.mine ? styles.mine : ''}`}
              data-testid="chat-message"
              data-mine={m.mine}
            >
              {m.file && url ? (
                m.file.kind === 'image' ? (
                  <a href={url} target="_blank" rel="noopener noreferrer" data-testid="chat-file">
                    <img className={styles.preview} src={url} alt={m.file.name} />
                  </a>
                ) : (
                  <a href={url} target="_blank" rel="noopener noreferrer" download={m.file.name} data-testid="chat-file">
                    <FileText size={16} aria-hidden="true" /> <bdi>{m.file.name}</bdi>
                  </a>
                )
              ) : (
                <bdi className={styles.body}>{m.body}</bdi>
              )}
              <time className={styles.time} dateTime={new Date(m.at).toISOString()}>
                {new Date(m.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
              </time>
            </li>
          );
        })}
      </ol>
    </aside>
  );
}
