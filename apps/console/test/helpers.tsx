import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import '../src/i18n/index.ts';
import { AppProviders } from '../src/app/App.tsx';
import type { ConsoleStore } from '../src/state/store.ts';

export function Wrapper({ store, children, path = '/' }: { store: ConsoleStore; children: ReactNode; path?: string }) {
  return (
    <AppProviders store={store}>
      <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
    </AppProviders>
  );
}

export const agent = {
  id: 1,
  email: 'sarah@example.com',
  name: 'Sarah Miller',
  role: 'agent' as const,
  companyId: 18,
  jid: 'sarah@lobby.local',
  assignmentIds: [1],
};
