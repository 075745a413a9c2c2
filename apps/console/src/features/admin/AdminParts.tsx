// The pieces every administration and reports page repeats: the page's heading with its lead and the
// error alert, and a table whose head names its columns (the last one, the row's buttons, by a hidden
// label). One place, so that the pages stay alike.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './Admin.module.css';

export interface PageHeadProps {
  title: string;
  lead: string;
  /** the page's last error, shown as an alert */
  error?: string | null;
  /** controls beside the heading (a filter) */
  children?: ReactNode;
}

export function PageHead({ title, lead, error, children }: PageHeadProps) {
  return (
    <>
      <div className={styles.headline}>
        <div>
          <h1>{title}</h1>
          <p className={styles.lead}>{lead}</p>
        </div>
        {children}
      </div>
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}

export interface AdminTableProps {
  /** the column headings; a number column's heading is aligned like its cells */
  columns: ReadonlyArray<string | { label: string; numeric: true }>;
  /** a last column of buttons, named for screen readers only */
  actions?: boolean;
  children: ReactNode;
}

export function AdminTable({ columns, actions, children }: AdminTableProps) {
  const { t } = useTranslation('admin');
  return (
    <table className={styles.table}>
      <thead>
        <tr>
          {columns.map((c) =>
            typeof c === 'string' ? (
              <th key={c} scope="col">
                {c}
              </th>
            ) : (
              <th key={c.label} scope="col" className={styles.num}>
                {c.label}
              </th>
            ),
          )}
          {actions ? (
            <th scope="col">
              <span className="visually-hidden">{t('common.actions')}</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
