import { useTranslation } from '../../i18n/index.ts';
import Bot from 'lucide-react/icons/bot';
import { MessageScreen } from '../base/MessageScreen.tsx';

/** An automated browser was detected; calls are for people. */
export function BotScreen() {
  const { t } = useTranslation();
  return <MessageScreen screen="bot" icon={<Bot size={34} />} title={t('bot.title')} body={<p>{t('bot.body')}</p>} />;
}
