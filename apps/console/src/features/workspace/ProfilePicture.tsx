import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '@lobby/ui';
import { setProfilePicture } from '../../api/console.ts';
import { useConsoleStore } from '../../state/store.ts';
import { useAgentActions } from '../../state/agentActions.ts';
import styles from './Workspace.module.css';

/**
 * The user's avatar in the header, which is also where it chooses its picture (the one guests see,
 * peers profileImageUrl): a click opens the file picker; the server checks the image.
 * The desk announces a new picture at once in every guest room it is in.
 */
export function ProfilePicture() {
  const { t } = useTranslation();
  const user = useConsoleStore((s) => s.user);
  const setSession = useConsoleStore((s) => s.setSession);
  const actions = useAgentActions();
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  const choose = async (file: File | undefined) => {
    if (!file || !user) return;
    setBusy(true);
    setFailed(false);
    try {
      const url = await setProfilePicture(file, user.companyId);
      const { profileImageUrl: _old, ...rest } = user;
      setSession(url ? { ...rest, profileImageUrl: url } : rest);
      // guests (waiting or in a call) see it at once: the desk announces it in their rooms
      actions.desk?.()?.setProfileImageUrl(url);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <label className={styles.picture} title={t('header.picture')} data-busy={busy || undefined} data-failed={failed || undefined}>
      <Avatar name={user?.name} imageUrl={user?.profileImageUrl ?? null} size={34} />
      <input
        type="file"
        accept="image/png,image/jpeg,image/webp"
        className="visually-hidden"
        aria-label={t('header.picture')}
        data-testid="profile-picture-input"
        disabled={busy || !user}
        onChange={(e) => {
          void choose(e.currentTarget.files?.[0]);
          e.currentTarget.value = '';
        }}
      />
      {failed ? (
        <span className="visually-hidden" role="alert" data-testid="profile-picture-error">
          {t('header.pictureFailed')}
        </span>
      ) : null}
    </label>
  );
}
