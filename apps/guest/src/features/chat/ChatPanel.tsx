import { ChatPanel as SharedChatPanel } from '@lobby/ui';
import { NONE, useInCall } from '../ongoing/inCall.ts';
import { ChatFile } from './ChatFile.tsx';

/** The guest's chat: the shared panel on the guest engine; files are read with the guest's token. */
export function ChatPanel({ onClose }: { onClose: () => void }) {
  const messages = useInCall((s) => s.status?.chatMessages ?? NONE);
  const engine = useInCall((s) => s.engine);
  return (
    <SharedChatPanel
      messages={messages}
      keyPrefix="ongoing"
      onClose={onClose}
      onSend={(text) => engine?.sendChat(text)}
      onAttach={async (file) => {
        if (engine) await engine.sendFile(file);
      }}
      renderFile={(file) => <ChatFile url={file.url} name={file.name} kind={file.kind} />}
    />
  );
}
