import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AppRoutes } from '../src/app/App.tsx';
import { createConsoleStore } from '../src/state/store.ts';
import { companyDefaults } from '@lobby/contracts';
import { agent, Wrapper } from './helpers.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const admin = { ...agent, id: 2, name: 'Ada Admin', role: 'admin' as const };
const company = { ...companyDefaults, id: 18, activated: true, name: 'Acme', host: 'localhost', assignments: [{ id: 1, name: 'Sales', type: 'queue' }], assignmentGroups: [] };

describe('console administration', () => {
  it('when an agent opens an administration page, then it is sent back to its workspace', () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(json(200, { data: { name: 'Acme' } }))));
    const store = createConsoleStore({ session: 'authenticated', user: agent });
    render(
      <Wrapper store={store} path="/admin/settings">
        <AppRoutes />
      </Wrapper>,
    );
    expect(document.querySelector('[data-screen="workspace"]')).not.toBeNull();
    expect(document.querySelector('[data-screen="admin-settings"]')).toBeNull();
    expect(screen.queryByTestId('nav-admin')).toBeNull();
  });

  it('when an admin edits two settings and saves, then only those two are sent and the sketch follows while typing', async () => {
    const calls: Array<{ url: string; init?: RequestInit }> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init?: RequestInit) => {
        calls.push({ url, init });
        if (url === '/api/admin/company' && init?.method === 'PUT') {
          const patch = JSON.parse(init.body as string) as Record<string, unknown>;
          return Promise.resolve(json(200, { data: { ...company, ...patch } }));
        }
        if (url === '/api/admin/company') return Promise.resolve(json(200, { data: company }));
        return Promise.resolve(json(200, { data: { name: 'Acme' } }));
      }),
    );
    const store = createConsoleStore({ session: 'authenticated', user: admin });
    render(
      <Wrapper store={store} path="/admin/settings">
        <AppRoutes />
      </Wrapper>,
    );
    const name = await screen.findByTestId('setting-name');
    fireEvent.change(name, { target: { value: 'Acme Bank' } });
    fireEvent.mouseDown(screen.getByTestId('settings-tab-messages'));
    fireEvent.change(await screen.findByTestId('setting-welcomeMsg'), { target: { value: 'Hello there' } });
    expect(screen.getByTestId('preview-welcome').textContent).toBe('Hello there');

    fireEvent.click(screen.getByTestId('settings-save'));
    await screen.findByTestId('settings-message');
    const put = calls.find((c) => c.init?.method === 'PUT');
    expect(JSON.parse(put?.init?.body as string)).toEqual({ name: 'Acme Bank', welcomeMsg: 'Hello there' });
    await waitFor(() => expect(store.getState().companyName).toBe('Acme Bank'));
  });

  it('when the server refuses a setting, then its message naming the field is shown', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init?: RequestInit) => {
        if (url === '/api/admin/company' && init?.method === 'PUT') {
          return Promise.resolve(json(400, { statusCode: 400, error: 'Bad Request', message: 'body/backgroundColor must NOT have more than 32 characters' }));
        }
        return Promise.resolve(json(200, { data: url === '/api/admin/company' ? company : { name: 'Acme' } }));
      }),
    );
    const store = createConsoleStore({ session: 'authenticated', user: admin });
    render(
      <Wrapper store={store} path="/admin/settings">
        <AppRoutes />
      </Wrapper>,
    );
    fireEvent.change(await screen.findByTestId('setting-name'), { target: { value: 'X' } });
    fireEvent.click(screen.getByTestId('settings-save'));
    expect((await screen.findByTestId('settings-message')).textContent).toContain('backgroundColor');
  });
});

describe('builders', () => {
  it('when a field label is given, then its answer key is a unique identifier made from it', async () => {
    const { keyFor } = await import('../src/features/admin/FormsPage.tsx');
    expect(keyFor('Full name', [])).toBe('Full_name');
    expect(keyFor('Full name', ['Full_name'])).toBe('Full_name_2');
    expect(keyFor('الاسم', [])).toBe('field');
    expect(keyFor('2nd phone!', [])).toBe('nd_phone');
  });

  it('when polygon corners are typed as latitude, longitude lines, then they become [lng, lat] pairs; anything else is refused', async () => {
    const { parseCorners } = await import('../src/features/admin/GuestRulesPage.tsx');
    expect(parseCorners('24.71, 46.67\n24.72 46.70\n\n-1.5,-2')).toEqual([
      [46.67, 24.71],
      [46.7, 24.72],
      [-2, -1.5],
    ]);
    expect(parseCorners('24.71, 46.67\nsomewhere')).toBeNull();
    expect(parseCorners('95, 10')).toBeNull();
  });
});
