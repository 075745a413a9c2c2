import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Plus from 'lucide-react/icons/plus';
import Trash from 'lucide-react/icons/trash-2';
import {
  createAssignment,
  createGroup,
  deleteAssignment,
  deleteGroup,
  listAssignments,
  listGroups,
  listUsers,
  updateAssignment,
  updateGroup,
  type AdminAssignment,
  type AdminAssignmentGroup,
  type AdminUser,
} from '../../api/admin.ts';
import { AdminLayout } from './AdminLayout.tsx';
import { errorText, useAsync } from './useAsync.ts';
import styles from './Admin.module.css';
import { Button } from '@lobby/ui';
import { PageHead, AdminTable } from './AdminParts.tsx';

const toggle = (ids: number[], id: number) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]);

function AssignmentRow({ a, users, onChanged, onError }: { a: AdminAssignment; users: AdminUser[]; onChanged: () => void; onError: (m: string) => void }) {
  const { t } = useTranslation('admin');
  const [name, setName] = useState(a.name);
  const [type, setType] = useState(a.type);
  const [agentIds, setAgentIds] = useState(a.agentIds);
  const dirty = name !== a.name || type !== a.type || JSON.stringify([...agentIds].sort()) !== JSON.stringify([...a.agentIds].sort());
  const save = () =>
    updateAssignment(a.id, { name, type, agentIds })
      .then(onChanged)
      .catch((e: unknown) => onError(errorText(e)));
  const remove = () => {
    if (!window.confirm(t('assignments.confirmDelete', { name: a.name }))) return;
    deleteAssignment(a.id)
      .then(onChanged)
      .catch((e: unknown) => onError(errorText(e)));
  };
  return (
    <tr data-testid="assignment-row" data-assignment-id={a.id}>
      <td>
        <input className={styles.input} aria-label={t('assignments.name')} value={name} onChange={(e) => setName(e.target.value)} maxLength={120} />
      </td>
      <td>
        <select className={styles.select} aria-label={t('assignments.type')} value={type} onChange={(e) => setType(e.target.value as typeof type)}>
          <option value="queue">{t('assignments.queue')}</option>
          <option value="appointment">{t('assignments.appointment')}</option>
        </select>
      </td>
      <td>
        <fieldset className={styles.chips} style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="visually-hidden">{t('assignments.agentsOf', { name: a.name })}</legend>
          {users.map((u) => (
            <label key={u.id} className={styles.chip}>
              <input type="checkbox" checked={agentIds.includes(u.id)} onChange={() => setAgentIds(toggle(agentIds, u.id))} />
              {u.name}
            </label>
          ))}
        </fieldset>
      </td>
      <td>
        <span className={styles.rowActions}>
          <button type="button" className={styles.smallButton} disabled={!dirty || !name.trim()} onClick={() => void save()}>
            {t('common.save')}
          </button>
          <button type="button" className={`${styles.smallButton} ${styles.danger}`} onClick={remove} aria-label={t('common.deleteNamed', { name: a.name })}>
            <Trash size={16} aria-hidden="true" />
          </button>
        </span>
      </td>
    </tr>
  );
}

function GroupRow({ g, assignments, onChanged, onError }: { g: AdminAssignmentGroup; assignments: AdminAssignment[]; onChanged: () => void; onError: (m: string) => void }) {
  const { t } = useTranslation('admin');
  const [name, setName] = useState(g.name);
  const [ids, setIds] = useState(g.assignmentIds);
  const dirty = name !== g.name || JSON.stringify([...ids].sort()) !== JSON.stringify([...g.assignmentIds].sort());
  return (
    <tr data-testid="group-row">
      <td>
        <input className={styles.input} aria-label={t('groups.name')} value={name} onChange={(e) => setName(e.target.value)} maxLength={120} />
      </td>
      <td>
        <fieldset className={styles.chips} style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="visually-hidden">{t('groups.membersOf', { name: g.name })}</legend>
          {assignments.map((a) => (
            <label key={a.id} className={styles.chip}>
              <input type="checkbox" checked={ids.includes(a.id)} onChange={() => setIds(toggle(ids, a.id))} />
              {a.name}
            </label>
          ))}
        </fieldset>
      </td>
      <td>
        <span className={styles.rowActions}>
          <button
            type="button"
            className={styles.smallButton}
            disabled={!dirty || !name.trim()}
            onClick={() =>
              void updateGroup(g.id, { name, assignmentIds: ids })
                .then(onChanged)
                .catch((e: unknown) => onError(errorText(e)))
            }
          >
            {t('common.save')}
          </button>
          <button
            type="button"
            className={`${styles.smallButton} ${styles.danger}`}
            aria-label={t('common.deleteNamed', { name: g.name })}
            onClick={() =>
              void deleteGroup(g.id)
                .then(onChanged)
                .catch((e: unknown) => onError(errorText(e)))
            }
          >
            <Trash size={16} aria-hidden="true" />
          </button>
        </span>
      </td>
    </tr>
  );
}

/** Assignments (queues and appointment lines) with the agents serving each, and assignment groups. */
export function AssignmentsPage() {
  const { t } = useTranslation('admin');
  const data = useAsync(async () => {
    const [assignments, groups, users] = await Promise.all([listAssignments(), listGroups(), listUsers()]);
    return { assignments, groups, users };
  });
  const [error, setError] = useState<string | null>(null);
  const [newName, setNewName] = useState('');
  const [newType, setNewType] = useState<'queue' | 'appointment'>('queue');
  const [groupName, setGroupName] = useState('');
  const changed = () => {
    setError(null);
    data.reload();
  };

  function add(e: FormEvent) {
    e.preventDefault();
    if (!newName.trim()) return;
    createAssignment({ name: newName.trim(), type: newType, agentIds: [] })
      .then(() => {
        setNewName('');
        changed();
      })
      .catch((err: unknown) => setError(errorText(err)));
  }
  function addGroup(e: FormEvent) {
    e.preventDefault();
    if (!groupName.trim()) return;
    createGroup({ name: groupName.trim(), assignmentIds: [] })
      .then(() => {
        setGroupName('');
        changed();
      })
      .catch((err: unknown) => setError(errorText(err)));
  }

  const d = data.data;
  return (
    <AdminLayout screen="admin-assignments">
      <PageHead title={t('assignments.title')} lead={t('assignments.lead')} error={error ?? data.error} />
      <section className={styles.card} aria-labelledby="assignments-h">
        <h2 id="assignments-h">{t('assignments.listTitle')}</h2>
        {d && d.assignments.length === 0 ? <p className={styles.empty}>{t('assignments.empty')}</p> : null}
        {d && d.assignments.length > 0 ? (
          <AdminTable columns={[t('assignments.name'), t('assignments.type'), t('assignments.agents')]} actions>
              {d.assignments.map((a) => (
                <AssignmentRow key={`${a.id}-${a.name}-${a.type}-${a.agentIds.join(',')}`} a={a} users={d.users} onChanged={changed} onError={setError} />
              ))}
          </AdminTable>
        ) : null}
        <form className={styles.actions} onSubmit={add} style={{ marginBlockStart: 12 }}>
          <input className={styles.input} style={{ maxInlineSize: 280 }} aria-label={t('assignments.newName')} placeholder={t('assignments.newName')} value={newName} onChange={(e) => setNewName(e.target.value)} maxLength={120} data-testid="new-assignment-name" />
          <select className={styles.select} style={{ maxInlineSize: 180 }} aria-label={t('assignments.type')} value={newType} onChange={(e) => setNewType(e.target.value as 'queue' | 'appointment')}>
            <option value="queue">{t('assignments.queue')}</option>
            <option value="appointment">{t('assignments.appointment')}</option>
          </select>
          <Button type="submit" icon={<Plus size={18} />} disabled={!newName.trim()} data-testid="add-assignment">
            {t('assignments.add')}
          </Button>
        </form>
      </section>
      <section className={styles.card} aria-labelledby="groups-h">
        <h2 id="groups-h">{t('groups.title')}</h2>
        <p className={styles.hint}>{t('groups.lead')}</p>
        {d && d.groups.length > 0 ? (
          <AdminTable columns={[t('groups.name'), t('groups.members')]} actions>
              {d.groups.map((g) => (
                <GroupRow key={`${g.id}-${g.name}-${g.assignmentIds.join(',')}`} g={g} assignments={d.assignments} onChanged={changed} onError={setError} />
              ))}
          </AdminTable>
        ) : (
          <p className={styles.empty}>{t('groups.empty')}</p>
        )}
        <form className={styles.actions} onSubmit={addGroup} style={{ marginBlockStart: 12 }}>
          <input className={styles.input} style={{ maxInlineSize: 280 }} aria-label={t('groups.newName')} placeholder={t('groups.newName')} value={groupName} onChange={(e) => setGroupName(e.target.value)} maxLength={120} />
          <Button type="submit" icon={<Plus size={18} />} disabled={!groupName.trim()}>
            {t('groups.add')}
          </Button>
        </form>
      </section>
    </AdminLayout>
  );
}
