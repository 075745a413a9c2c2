import { useTranslation } from 'react-i18next';
import Bot from 'lucide-react/icons/bot';
import { MessageScreen } from '../base/MessageScreen.tsx';

/** An automated browser was detected; calls are for people. */
export function BotScreen() {
  const { t } = useTranslation();
  return <MessageScreen screen="bot" icon={<Bot size={34} />} title={t('bot.title')} body={<p>{t('bot.body')}</p>} />;
}
