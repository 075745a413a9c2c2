import FileText from 'lucide-react/icons/file-text';
import { ChatPanel as SharedChatPanel, chatPanelStyles as styles } from '@lobby/ui';
import { NONE, useAgentInCall as useInCall } from '../call/agentInCall.ts';

/** The agent's chat: the shared panel on the agent engine; files are linked (the console's cookie reads them). */
export function ChatPanel({ onClose }: { onClose: () => void }) {
  const messages = useInCall((s) => s.status?.chatMessages ?? NONE);
  const engine = useInCall((s) => s.engine);
  return (
    <SharedChatPanel
      messages={messages}
      keyPrefix="inCall"
      onClose={onClose}
      onSend={(text) => engine?.sendChat(text)}
      onAttach={async (file) => {
        if (engine) await engine.sendFile(file);
      }}
      renderFile={(file) =>
        file.kind === 'image' ? (
          <a href={file.url} target="_blank" rel="noopener noreferrer" data-testid="chat-file">
            <img className={styles.preview} src={file.url} alt={file.name} />
          </a>
        ) : (
          <a href={file.url} target="_blank" rel="noopener noreferrer" download={file.name} data-testid="chat-file">
            <FileText size={16} aria-hidden="true" /> <bdi>{file.name}</bdi>
          </a>
        )
      }
    />
  );
}
