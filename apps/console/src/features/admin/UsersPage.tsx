import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import UserPlus from 'lucide-react/icons/user-plus';
import Trash from 'lucide-react/icons/trash-2';
import { createUser, deleteUser, listAssignments, listUsers, updateUser, type AdminAssignment, type AdminUser } from '../../api/admin.ts';
import type { Role } from '../../api/console.ts';
import { useConsoleStore } from '../../state/store.ts';
import { AdminLayout } from './AdminLayout.tsx';
import { errorText, useAsync } from './useAsync.ts';
import styles from './Admin.module.css';
import { Button } from '@lobby/ui';
import { PageHead, AdminTable } from './AdminParts.tsx';

const ROLES: Role[] = ['agent', 'supervisor', 'admin'];

function UserRow({ u, assignments, me, onChanged, onError }: { u: AdminUser; assignments: AdminAssignment[]; me: number | undefined; onChanged: (m?: string) => void; onError: (m: string) => void }) {
  const { t } = useTranslation('admin');
  const [role, setRole] = useState(u.role);
  const [password, setPassword] = useState('');
  const [ids, setIds] = useState(u.assignmentIds);
  const dirty = role !== u.role || password !== '' || JSON.stringify([...ids].sort()) !== JSON.stringify([...u.assignmentIds].sort());
  const save = () =>
    updateUser(u.id, { ...(role !== u.role ? { role } : {}), ...(password ? { password } : {}), assignmentIds: ids })
      .then(() => onChanged(password ? t('users.passwordSet', { name: u.name }) : undefined))
      .catch((e: unknown) => onError(errorText(e)));
  return (
    <tr data-testid="user-row" data-email={u.email}>
      <td>
        <strong>{u.name}</strong>
        <div className={styles.hint} dir="ltr">
          {u.email}
        </div>
      </td>
      <td>
        <select className={`${styles.select} ${styles.roleSelect}`} aria-label={t('users.roleOf', { name: u.name })} value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {t(`users.role.${r}`)}
            </option>
          ))}
        </select>
      </td>
      <td>
        <fieldset className={styles.chips} style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="visually-hidden">{t('users.assignmentsOf', { name: u.name })}</legend>
          {assignments.map((a) => (
            <label key={a.id} className={styles.chip}>
              <input type="checkbox" checked={ids.includes(a.id)} onChange={() => setIds(ids.includes(a.id) ? ids.filter((x) => x !== a.id) : [...ids, a.id])} />
              {a.name}
            </label>
          ))}
        </fieldset>
      </td>
      <td>
        <input
          className={styles.input}
          type="password"
          autoComplete="new-password"
          minLength={10}
          aria-label={t('users.newPasswordFor', { name: u.name })}
          placeholder={t('users.newPassword')}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </td>
      <td>
        <span className={styles.rowActions}>
          <button type="button" className={styles.smallButton} disabled={!dirty || (password !== '' && password.length < 10)} onClick={() => void save()}>
            {t('common.save')}
          </button>
          {u.id !== me ? (
            <button
              type="button"
              className={`${styles.smallButton} ${styles.danger}`}
              aria-label={t('common.deleteNamed', { name: u.name })}
              onClick={() => {
                if (!window.confirm(t('users.confirmDelete', { name: u.name }))) return;
                void deleteUser(u.id)
                  .then(() => onChanged())
                  .catch((e: unknown) => onError(errorText(e)));
              }}
            >
              <Trash size={16} aria-hidden="true" />
            </button>
          ) : null}
        </span>
      </td>
    </tr>
  );
}

/** Agents, supervisors and admins: roles, the assignments each serves, passwords set by the admin. */
export function UsersPage() {
  const { t } = useTranslation('admin');
  const me = useConsoleStore((s) => s.user?.id);
  const data = useAsync(async () => {
    const [users, assignments] = await Promise.all([listUsers(), listAssignments()]);
    return { users, assignments };
  });
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [form, setForm] = useState({ name: '', email: '', role: 'agent' as Role, password: '' });
  const changed = (m?: string) => {
    setError(null);
    setNotice(m ?? null);
    data.reload();
  };
  function add(e: FormEvent) {
    e.preventDefault();
    createUser({ ...form, name: form.name.trim(), email: form.email.trim(), assignmentIds: [] })
      .then(() => {
        setForm({ name: '', email: '', role: 'agent', password: '' });
        changed(t('users.created'));
      })
      .catch((err: unknown) => setError(errorText(err)));
  }
  const d = data.data;
  return (
    <AdminLayout screen="admin-users">
      <PageHead title={t('users.title')} lead={t('users.lead')} error={error ?? data.error} />
      {notice ? (
        <p role="status" className={styles.success}>
          {notice}
        </p>
      ) : null}
      <section className={styles.card} aria-labelledby="users-h">
        <h2 id="users-h">{t('users.listTitle')}</h2>
        {d ? (
          <AdminTable columns={[t('users.name'), t('users.roleLabel'), t('users.assignments'), t('users.password')]} actions>
              {d.users.map((u) => (
                <UserRow key={`${u.id}-${u.role}-${u.assignmentIds.join(',')}`} u={u} assignments={d.assignments} me={me} onChanged={changed} onError={setError} />
              ))}
          </AdminTable>
        ) : null}
      </section>
      <section className={styles.card} aria-labelledby="new-user-h">
        <h2 id="new-user-h">{t('users.addTitle')}</h2>
        <form onSubmit={add} className={styles.grid2}>
          <div className={styles.field}>
            <label className={styles.label} htmlFor="new-user-name">
              {t('users.name')}
            </label>
            <input id="new-user-name" className={styles.input} required maxLength={200} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
          </div>
          <div className={styles.field}>
            <label className={styles.label} htmlFor="new-user-email">
              {t('users.email')}
            </label>
            <input id="new-user-email" className={styles.input} type="email" dir="ltr" required value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
          </div>
          <div className={styles.field}>
            <label className={styles.label} htmlFor="new-user-role">
              {t('users.roleLabel')}
            </label>
            <select id="new-user-role" className={styles.select} value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {t(`users.role.${r}`)}
                </option>
              ))}
            </select>
          </div>
          <div className={styles.field}>
            <label className={styles.label} htmlFor="new-user-password">
              {t('users.password')}
            </label>
            <input id="new-user-password" className={styles.input} type="password" autoComplete="new-password" required minLength={10} value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} aria-describedby="new-user-password-hint" />
            <span id="new-user-password-hint" className={styles.hint}>
              {t('users.passwordHint')}
            </span>
          </div>
          <div className={`${styles.actions} ${styles.formEnd}`}>
            <Button type="submit" icon={<UserPlus size={18} />}>
              {t('users.add')}
            </Button>
          </div>
        </form>
      </section>
    </AdminLayout>
  );
}
