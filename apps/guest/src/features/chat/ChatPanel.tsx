import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Paperclip from 'lucide-react/icons/paperclip';
import Send from 'lucide-react/icons/send';
import X from 'lucide-react/icons/x';
import { NONE, useInCall } from '../ongoing/inCall.ts';
import { ChatFile } from './ChatFile.tsx';
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
    <aside className={styles.panel} data-testid="chat-panel" aria-label={t('ongoing.chat')}>
      <header className={styles.head}>
        <h2 className={styles.title}>{t('ongoing.chat')}</h2>
        <button type="button" className={styles.close} aria-label={t('ongoing.closeChat')} onClick={onClose}>
          <X size={20} aria-hidden="true" />
        </button>
      </header>
      <form className={styles.compose} onSubmit={submit}>
        <button
          type="button"
          className={styles.attach}
          aria-label={t('ongoing.attachFile')}
          title={t('ongoing.attachFile')}
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
          placeholder={t('ongoing.typeMessage')}
          aria-label={t('ongoing.typeMessage')}
          maxLength={2000}
          data-testid="chat-input"
        />
        <button type="submit" className={styles.send} aria-label={t('ongoing.send')} data-testid="chat-send">
          <Send size={18} aria-hidden="true" />
        </button>
      </form>
      {uploading ? <p className={styles.note}>{t('ongoing.uploading')}</p> : null}
      {failed ? (
        <p className={styles.note} role="alert">
          {t('ongoing.uploadFailed')}
        </p>
      ) : null}
      <ol className={styles.list} aria-live="polite" data-testid="chat-messages">
        {messages.length === 0 ? <li className={styles.empty}>{t('ongoing.noMessages')}</li> : null}
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
                <ChatFile url={url} name={m.file.name} kind={m.file.kind === 'image' ? 'image' : 'document'} />
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
