import FileText from 'lucide-react/icons/file-text';
import { ChatPanel as SharedChatPanel, chatPanelStyles as styles } from '@lobby/ui';
import { NONE } from '../../state/inCall.ts';
import { useAgentInCall } from '../../state/store.ts';
import { useDesk } from '../../state/agentActions.ts';

/** A chat file for the agent: a link (the console's session cookie reads it), images previewed. */
function AgentChatFile({ url, name, kind }: { url: string; name: string; kind: 'image' | 'document' }) {
  return kind === 'image' ? (
    <a href={url} target="_blank" rel="noopener noreferrer" data-testid="chat-file">
      <img className={styles.preview} src={url} alt={name} />
    </a>
  ) : (
    <a href={url} target="_blank" rel="noopener noreferrer" download={name} data-testid="chat-file">
      <FileText size={16} aria-hidden="true" /> <bdi>{name}</bdi>
    </a>
  );
}

/** The agent's chat: the shared panel on the agent engine. */
export function ChatPanel({ onClose, openerId }: { onClose: () => void; openerId: string }) {
  const chat = useAgentInCall((s) => s.status?.chatMessages ?? NONE);
  const desk = useDesk();
  return <SharedChatPanel messages={chat} engine={desk} onClose={onClose} openerId={openerId} renderFile={AgentChatFile} />;
}
