import { useId, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/index.ts';
import Video from 'lucide-react/icons/video';
import Phone from 'lucide-react/icons/phone';
import CircleDot from 'lucide-react/icons/circle-dot';
import CalendarCheck from 'lucide-react/icons/calendar-check';
import CircleAlert from 'lucide-react/icons/circle-alert';
import type { CallKind } from '@lobby/call';
import { useGuestStore } from '../../state/store.ts';
import { useCallActions } from '../../state/callActions.ts';
import { useCompanyMessage } from '../base/hooks.ts';
import { visibleAssignments, visibleGroups } from '../../journey/assignments.ts';
import { WelcomeForm } from './WelcomeForm.tsx';
import ExternalLink from 'lucide-react/icons/external-link';
import styles from './SelectionScreen.module.css';
import { Button, Avatar } from '@lobby/ui';

/** The start screen: who you are calling, what about, and the call button(s). */
export function SelectionScreen() {
  const { t } = useTranslation(['translation', 'ui']);
  const actions = useCallActions();
  const company = useGuestStore((s) => s.company);
  const assignmentId = useGuestStore((s) => s.assignmentId);
  const setAssignment = useGuestStore((s) => s.setAssignment);
  const appointment = useGuestStore((s) => s.appointmentReference);
  const welcome = useCompanyMessage('welcomeMsg');
  const buttonText = useCompanyMessage('welcomeButtonText');
  const recordAlert = useCompanyMessage('recordAlertText');
  const groupId = useId();

  const { t: tj } = useTranslation('journey');
  const formRequired = useGuestStore((s) => s.formRequired);
  const groups = visibleGroups(company);
  const [groupChoice, setGroupChoice] = useState<string | null>(null);
  const group = groups.find((g) => String(g.group.id) === groupChoice) ?? null;
  const allAssignments = visibleAssignments(company);
  // With groups, the guest first says what it is about, then (when the group has several) to whom.
  const assignments = groups.length > 1 ? (group?.assignments ?? []) : allAssignments;
  const chooseAssignment = !appointment && (assignments.length > 1 || (groups.length > 1 && !group));
  const selected = allAssignments.find((a) => a.id === assignmentId) ?? null;
  const chooseGroup = (id: string) => {
    setGroupChoice(id);
    const chosen = groups.find((g) => String(g.group.id) === id);
    setAssignment(chosen?.assignments.length === 1 && chosen.assignments[0] ? chosen.assignments[0].id : null);
    setMissing(false);
  };
  const callType = company?.callType ?? 'userSelect';
  const [missing, setMissing] = useState(false);
  const groupRef = useRef<HTMLFieldSetElement>(null);
  const start = (kind: CallKind) => {
    // The call needs an assignment: ask for one instead of disabling the buttons without a word.
    if (chooseAssignment && selected === null) {
      setMissing(true);
      groupRef.current?.querySelector('input')?.focus();
      return;
    }
    void actions.startCall(kind);
  };

  return (
    <section className={styles.card} data-screen="selection" aria-labelledby="selection-title">
      <header className={styles.brand}>
        <Avatar name={company?.name} imageUrl={company?.logoImageUrl} size={84} />
        <h1 id="selection-title" className={styles.name}>
          {company?.name}
        </h1>
        <p className={styles.welcome} dir="auto" data-testid="welcome-message">{welcome}</p>
        {company?.websiteUrl ? (
          <a className={styles.website} href={company.websiteUrl} target="_blank" rel="noopener noreferrer" data-testid="website-link">
            {company.websiteTitle || company.websiteUrl}
            <ExternalLink size={14} aria-hidden="true" />
          </a>
        ) : null}
      </header>

      {formRequired ? <WelcomeForm /> : null}

      {appointment ? (
        <p className={styles.appointment}>
          <CalendarCheck size={18} aria-hidden="true" />
          <span>{t('selection.appointment')}</span>
          <bdi className={styles.reference}>{appointment}</bdi>
        </p>
      ) : null}

      {!formRequired && !appointment && groups.length > 1 ? (
        <fieldset className={styles.assignments} data-style={company?.categoryStyle ?? 'list'}>
          <legend className={styles.legend}>{tj('selection.chooseGroup')}</legend>
          <div className={styles.options}>
            {groups.map(({ group: g }) => (
              <label key={g.id} className={styles.option} data-testid="group-option">
                <input
                  type="radio"
                  name={`${groupId}-group`}
                  value={String(g.id)}
                  checked={groupChoice === String(g.id)}
                  onChange={() => chooseGroup(String(g.id))}
                  className={styles.radio}
                />
                <span className={styles.optionLabel}>{g.name}</span>
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}

      {!formRequired && chooseAssignment && assignments.length > 1 ? (
        <fieldset
          data-style={company?.categoryStyle ?? 'list'}
          ref={groupRef}
          className={styles.assignments}
          data-invalid={missing && selected === null ? 'true' : undefined}
          aria-describedby={missing && selected === null ? `${groupId}-missing` : undefined}
        >
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
                  onChange={() => {
                    setAssignment(assignment.id);
                    setMissing(false);
                  }}
                  className={styles.radio}
                />
                <span className={styles.optionLabel}>{assignment.name}</span>
              </label>
            ))}
          </div>
          {missing && selected === null ? (
            <p className={styles.missing} id={`${groupId}-missing`} role="alert">
              <CircleAlert size={16} aria-hidden="true" />
              {t('selection.chooseAssignmentFirst')}
            </p>
          ) : null}
        </fieldset>
      ) : null}

      {formRequired ? null : (
      <div className={styles.calls} role="group" aria-label={t('selection.chooseCall')}>
        {callType === 'userSelect' ? (
          <>
            <Button
              size="lg"
              block
              icon={<Video size={22} />}
              hint={t('selection.videoHint')}
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
            hint={callType === 'voice' ? t('ui:call.voiceCall') : t('ui:call.videoCall')}
            onClick={() => start(callType)}
            data-testid="call-button"
            data-call-kind={callType}
          >
            {buttonText}
          </Button>
        )}
      </div>
      )}

      {missing && chooseAssignment && assignments.length <= 1 ? (
        <p className={styles.missing} role="alert">
          <CircleAlert size={16} aria-hidden="true" />
          {t('selection.chooseAssignmentFirst')}
        </p>
      ) : null}

      {company?.recordCalls !== false ? (
        <p className={styles.notice}>
          <CircleDot size={14} aria-hidden="true" />
          <bdi>{recordAlert}</bdi>
        </p>
      ) : null}
    </section>
  );
}
