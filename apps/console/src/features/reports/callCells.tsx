import { useTranslation } from 'react-i18next';
import { useConsoleStore } from '../../state/store.ts';
import { guestDisplayName } from '../../state/guestName.ts';

/** The guest as the queue named it: the welcome form's name, else "Guest" and its code (state/guestName.ts). */
export function GuestCell({ username, name }: { username: string | null; name: string | null }) {
  useConsoleStore((s) => s.language); // the unnamed label follows the language
  return <bdi>{username === null ? '–' : guestDisplayName(username, name)}</bdi>;
}

const scoreFormats = new Map<string, Intl.NumberFormat>();
function scoreFormat(language: string): Intl.NumberFormat {
  let format = scoreFormats.get(language);
  if (!format) scoreFormats.set(language, (format = new Intl.NumberFormat(language, { maximumFractionDigits: 1 })));
  return format;
}

/** A conversation's talk time in seconds, or a dash. */
export function TalkTime({ seconds }: { seconds: number | null }) {
  const { t } = useTranslation('admin');
  const language = useConsoleStore((s) => s.language);
  return <>{seconds !== null ? t('recentCalls.talkSeconds', { value: scoreFormat(language).format(seconds) }) : '–'}</>;
}

/** The guest's rating (score out of 5 and comment), or a dash. */
export function RatingCell({ rating }: { rating: { score: number | null; comment: string | null } | null }) {
  const { t } = useTranslation('admin');
  const language = useConsoleStore((s) => s.language);
  if (!rating) return <>–</>;
  return (
    <>
      {rating.score !== null ? <div>{t('recentCalls.score', { score: scoreFormat(language).format(rating.score) })}</div> : null}
      {rating.comment ? <bdi style={{ whiteSpace: 'pre-wrap' }}>{rating.comment}</bdi> : null}
    </>
  );
}
