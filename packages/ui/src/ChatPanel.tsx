import { useLayoutEffect, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { UI_NAMESPACE } from './strings.ts';
import Paperclip from 'lucide-react/icons/paperclip';
import Send from 'lucide-react/icons/send';
import X from 'lucide-react/icons/x';
import { safeFileUrl } from './safeUrl.ts';
import { usePanelDismiss } from './usePanelDismiss.ts';
import styles from './ChatPanel.module.css';
import panel from './SidePanel.module.css';

/** A chat message as the panel shows it (the engine's ChatEntry fits). */
export interface ChatPanelMessage {
  id: string;
  body: string;
  at: number;
  mine: boolean;
  file?: { url: string; name: string; kind: 'image' | 'document' };
}

/** What the panel asks of the call engine (the guest's and the agent's both have it). */
export interface ChatEngine {
  sendChat(text: string): void;
  /** uploads and sends a file; a rejection shows the app's "upload failed" text */
  sendFile(file: File): Promise<unknown>;
}

export interface ChatPanelProps {
  /** newest first, as the engines keep them; shown oldest at the top, newest at the bottom by the input */
  messages: readonly ChatPanelMessage[];
  /** null while the call is not set up: nothing is sent */
  engine: ChatEngine | null;
  onClose: () => void;
  /** the id of the button that opened the chat: the focus goes back to it when the chat closes */
  openerId?: string;
  /** how a file message is shown (the guest reads files with its token, the console links them) */
  renderFile: (file: { url: string; name: string; kind: 'image' | 'document' }) => ReactNode;
}

/** How close to the bottom (px) the list counts as read to the end, so a new message scrolls it down. */
const AT_END_SLACK = 48;

/**
 * Keeps the list at its newest message as messages arrive, as a messenger does, unless the reader has
 * scrolled up to read older ones (their own new message brings them down all the same). Returns the
 * list's scroll handler.
 */
function useStickToNewest(list: RefObject<HTMLElement | null>, messages: readonly ChatPanelMessage[]): () => void {
  const atEnd = useRef(true);
  const newest = messages[0];
  useLayoutEffect(() => {
    const element = list.current;
    if (element && (atEnd.current || newest?.mine)) element.scrollTop = element.scrollHeight;
  }, [list, newest]);
  return () => {
    const element = list.current;
    if (element) atEnd.current = element.scrollHeight - element.scrollTop - element.clientHeight <= AT_END_SLACK;
  };
}

/**
 * The call's chat, the same for guest and agent: text and files, oldest at the top and the newest at the
 * bottom next to the input. Times are written in the page's language (Arabic digits and ص/م in Arabic).
 * Escape anywhere in the call closes it (usePanelDismiss).
 */
export function ChatPanel({ messages, engine, onClose, openerId, renderFile }: ChatPanelProps) {
  const { t, i18n } = useTranslation(UI_NAMESPACE);
  // the strings are this package's (src/strings, `chat.*`); each app types its catalogues, so untyped here
  const lookup = t as unknown as (key: string) => string;
  const k = (key: string) => lookup(`chat.${key}`);
  const [text, setText] = useState('');
  const [uploading, setUploading] = useState(false);
  const [failed, setFailed] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const close = usePanelDismiss(panelRef, onClose, openerId);
  const onListScroll = useStickToNewest(listRef, messages);
  // the engines keep the newest first (state rule); the reader sees them in the order they were said
  const oldestFirst = [...messages].reverse();
  const timeFormat = new Intl.DateTimeFormat(i18n.language || undefined, { hour: '2-digit', minute: '2-digit' });

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
    <aside ref={panelRef} className={panel.panel} data-testid="chat-panel" aria-label={k('chat')}>
      <header className={panel.head}>
        <h2 className={panel.title}>{k('chat')}</h2>
        <button type="button" className={`${panel.iconButton} ${panel.close}`} aria-label={k('closeChat')} onClick={close}>
          <X size={20} aria-hidden="true" />
        </button>
      </header>
      <ol ref={listRef} className={styles.list} aria-live="polite" data-testid="chat-messages" onScroll={onListScroll}>
        {messages.length === 0 ? <li className={styles.empty}>{k('noMessages')}</li> : null}
        {oldestFirst.map((m) => {
          const url = m.file ? safeFileUrl(m.file.url) : null;
          return (
            <li key={m.id} className={`${styles.message} ${m.mine ? styles.mine : ''}`} data-testid="chat-message" data-mine={m.mine}>
              {m.file && url ? renderFile({ url, name: m.file.name, kind: m.file.kind }) : <bdi className={styles.body}>{m.body}</bdi>}
              <time className={styles.time} dateTime={new Date(m.at).toISOString()} data-testid="chat-time">
                {timeFormat.format(m.at)}
              </time>
            </li>
          );
        })}
      </ol>
      {uploading ? <p className={styles.note}>{k('uploading')}</p> : null}
      {failed ? (
        <p className={styles.note} role="alert">
          {k('uploadFailed')}
        </p>
      ) : null}
      <form className={styles.compose} onSubmit={submit}>
        <button
          type="button"
          className={panel.iconButton}
          aria-label={k('attachFile')}
          title={k('attachFile')}
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
          placeholder={k('typeMessage')}
          aria-label={k('typeMessage')}
          maxLength={2000}
          data-testid="chat-input"
        />
        <button type="submit" className={`${panel.iconButton} ${styles.send}`} aria-label={k('send')} data-testid="chat-send">
          <Send size={18} aria-hidden="true" />
        </button>
      </form>
    </aside>
  );
}
