import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import Video from 'lucide-react/icons/video';
import Phone from 'lucide-react/icons/phone';
import CircleDot from 'lucide-react/icons/circle-dot';
import CalendarCheck from 'lucide-react/icons/calendar-check';
import { useGuestStore, type CallKind } from '../../app/store.ts';
import { useCallActions } from '../../app/callActions.ts';
import { Button } from '../base/Button.tsx';
import { Avatar } from '../base/Avatar.tsx';
import { useCompanyMessage } from '../base/hooks.ts';
import type { Assignment } from '../../api/company.ts';
import styles from './SelectionScreen.module.css';

function assignmentName(assignment: Assignment, language: string): string {
  return (language === 'ar' && assignment.name_ar) || assignment.name;
}

/** The start screen: who you are calling, what about, and the call button(s). */
export function SelectionScreen() {
  const { t } = useTranslation();
  const actions = useCallActions();
  const company = useGuestStore((s) => s.company);
  const language = useGuestStore((s) => s.language);
  const assignmentId = useGuestStore((s) => s.assignmentId);
  const setAssignment = useGuestStore((s) => s.setAssignment);
  const appointment = useGuestStore((s) => s.appointmentReference);
  const welcome = useCompanyMessage('welcomeMsg');
  const buttonText = useCompanyMessage('welcomeButtonText');
  const recordAlert = useCompanyMessage('recordAlertText');
  const groupId = useId();

  const assignments = company?.assignments ?? [];
  const chooseAssignment = !appointment && assignments.length > 1;
  const selected = assignments.find((a) => a.id === assignmentId) ?? null;
  const canCall = !chooseAssignment || selected !== null;
  const callType = company?.callType ?? 'userSelect';
  const start = (kind: CallKind) => void actions.startCall(kind);

  return (
    <section className={styles.card} data-screen="selection" aria-labelledby="selection-title">
      <header className={styles.brand}>
        <Avatar name={company?.name} imageUrl={company?.logoImageUrl} size={84} />
        <h1 id="selection-title" className={styles.name}>
          {company?.name}
        </h1>
        <p className={styles.welcome}>{welcome}</p>
      </header>

      {appointment ? (
        <p className={styles.appointment}>
          <CalendarCheck size={18} aria-hidden="true" />
          <span>{t('selection.appointment')}</span>
          <bdi className={styles.reference}>{appointment}</bdi>
        </p>
      ) : null}

      {chooseAssignment ? (
        <fieldset className={styles.assignments}>
          <legend className={styles.legend} id={groupId}>
            {t('selection.chooseAssignment')}
          </legend>
          <div className={styles.options}>
            {assignments.map((assignment) => (
              <label key={assignment.id} className={styles.option} data-testid="assignment-option">
                <input
                  type="radio"
                  name={groupId}
                  value={String(assignment.id)}
                  checked={assignmentId === assignment.id}
                  onChange={() => setAssignment(assignment.id)}
                  className={styles.radio}
                />
                <span className={styles.optionLabel}>{assignmentName(assignment, language)}</span>
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}

      <div className={styles.calls} role="group" aria-label={t('selection.chooseCall')}>
        {callType === 'userSelect' ? (
          <>
            <Button
              size="lg"
              block
              icon={<Video size={22} />}
              hint={t('selection.videoHint')}
              disabled={!canCall}
              onClick={() => start('video')}
              data-testid="call-button"
              data-call-kind="video"
            >
              {t('selection.startVideo')}
            </Button>
            <Button
              size="lg"
              block
              variant="secondary"
              icon={<Phone size={22} />}
              hint={t('selection.voiceHint')}
              disabled={!canCall}
              onClick={() => start('voice')}
              data-testid="call-button"
              data-call-kind="voice"
            >
              {t('selection.startVoice')}
            </Button>
          </>
        ) : (
          <Button
            size="lg"
            block
            icon={callType === 'voice' ? <Phone size={22} /> : <Video size={22} />}
            hint={callType === 'voice' ? t('call.voiceCall') : t('call.videoCall')}
            disabled={!canCall}
            onClick={() => start(callType)}
            data-testid="call-button"
            data-call-kind={callType}
          >
            {buttonText}
          </Button>
        )}
      </div>

      {company?.recordCalls !== false ? (
        <p className={styles.notice}>
          <CircleDot size={14} aria-hidden="true" />
          {recordAlert}
        </p>
      ) : null}
    </section>
  );
}
