import { ChatPanel as SharedChatPanel } from '@lobby/ui';
import { NONE } from '../../state/inCall.ts';
import { useInCall } from '../../state/store.ts';
import { useCallEngine } from '../../state/callActions.ts';
import { ChatFile } from './ChatFile.tsx';
import { CHAT_BUTTON_ID } from '../ongoing/panelOpeners.ts';

/** The guest's chat: the shared panel on the guest engine; files are read with the guest's token. */
export function ChatPanel({ onClose }: { onClose: () => void }) {
  const messages = useInCall((s) => s.status?.chatMessages ?? NONE);
  const engine = useCallEngine();
  const file = (f: { url: string; name: string; kind: 'image' | 'document' }) => <ChatFile url={f.url} name={f.name} kind={f.kind} />;
  return <SharedChatPanel messages={messages} engine={engine} onClose={onClose} openerId={CHAT_BUTTON_ID} renderFile={file} />;
}
