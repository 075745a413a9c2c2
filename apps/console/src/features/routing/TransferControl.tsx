import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as Dialog from '@radix-ui/react-dialog';
import PhoneForwarded from 'lucide-react/icons/phone-forwarded';
import { useConsoleStore } from '../../state/store.ts';
import { useDesk, type ConsoleDesk } from '../../state/agentActions.ts';
import styles from './routing.module.css';
import { IconButton } from '@lobby/ui';

type Targets = Awaited<ReturnType<ConsoleDesk['transferTargets']>>;

/** The in-call Transfer button: pick an available agent (or an assignment); we stay until they are in. */
export function TransferControl() {
  const { t } = useTranslation('routing');
  const engine = useDesk();
  const setError = useConsoleStore((s) => s.setError);
  const [open, setOpen] = useState(false);
  const [targets, setTargets] = useState<Targets | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  if (!engine) return null;
  const load = async (next: boolean) => {
    setOpen(next);
    if (!next) return;
    setTargets(null);
    setSent(null);
    try {
      setTargets(await engine.transferTargets());
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const send = async (to: { toUserId: number } | { assignmentId: number }, name: string) => {
    try {
      await engine.transfer(to);
      setSent(name);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <Dialog.Root open={open} onOpenChange={(next) => void load(next)}>
      <Dialog.Trigger asChild>
        <IconButton label={t('transfer')} icon={<PhoneForwarded size={22} />} data-testid="agent-transfer-button" />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content className={styles.dialog} data-testid="transfer-dialog">
          <Dialog.Title className={styles.dialogTitle}>{t('transferTitle')}</Dialog.Title>
          <Dialog.Description className={styles.dialogHint}>{sent ? t('transferSent', { name: sent }) : t('transferHint')}</Dialog.Description>
          {targets === null ? null : (
            <>
              <h4 className={styles.groupTitle}>{t('agents')}</h4>
              {targets.agents.length === 0 ? <p className={styles.dialogHint}>{t('noAgents')}</p> : null}
              <ul className={styles.targetList}>
                {targets.agents.map((a) => (
                  <li key={a.id}>
                    <button type="button" className={styles.target} onClick={() => void send({ toUserId: a.id }, a.name)} data-testid="transfer-target-agent" data-jid={a.jid}>
                      <bdi>{a.name}</bdi>
                    </button>
                  </li>
                ))}
              </ul>
              <h4 className={styles.groupTitle}>{t('assignments')}</h4>
              <ul className={styles.targetList}>
                {targets.assignments.map((a) => (
                  <li key={a.id}>
                    <button type="button" className={styles.target} onClick={() => void send({ assignmentId: a.id }, a.name)} data-testid="transfer-target-assignment">
                      <bdi>{a.name}</bdi>
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
          <Dialog.Close className={styles.decline}>{t('close')}</Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
