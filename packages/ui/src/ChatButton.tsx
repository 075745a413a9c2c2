import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { IconButton } from './IconButton.tsx';
import { UI_NAMESPACE } from './strings.ts';
import stage from './CallStage.module.css';

export interface ChatButtonProps {
  open: boolean;
  unread: number;
  onToggle: () => void;
  icon: ReactNode;
  /** the id the chat panel gives the focus back to when it closes (ChatPanel `openerId`) */
  id: string;
  'data-testid': string;
  /** the unread badge's test id */
  badgeTestId: string;
}

/**
 * The call's chat button, the same for guest and agent: its accessible name says what a press does and,
 * while the chat is closed, how many messages are unread ("Open chat, 2 unread messages"); the badge
 * shows the count to the eye only, the name already says it.
 */
export function ChatButton({ open, unread, onToggle, icon, id, badgeTestId, ...rest }: ChatButtonProps) {
  const { t } = useTranslation(UI_NAMESPACE);
  // the strings are this package's (src/strings, `chat.*`); each app types its catalogues, so untyped here
  const lookup = t as unknown as (key: string, options?: { count: number }) => string;
  const label = open ? lookup('chat.closeChat') : unread > 0 ? lookup('chat.openChatUnread', { count: unread }) : lookup('chat.openChat');
  return (
    <span className={stage.badgeWrap}>
      <IconButton id={id} label={label} icon={icon} onClick={onToggle} data-testid={rest['data-testid']} aria-expanded={open} />
      {unread > 0 ? (
        <span className={stage.badge} data-testid={badgeTestId} aria-hidden="true">
          {unread}
        </span>
      ) : null}
    </span>
  );
}
