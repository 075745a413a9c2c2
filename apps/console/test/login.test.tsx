import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AppRoutes } from '../src/app/App.tsx';
import { createConsoleStore } from '../src/state/store.ts';
import { agent, Wrapper } from './helpers.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function fillAndSubmit(email: string, password: string) {
  fireEvent.change(screen.getByTestId('login-email'), { target: { value: email } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: password } });
  fireEvent.click(screen.getByTestId('login-submit'));
}

describe('console login', () => {
  it('when the server answers 401, then the login page shows the error', async () => {
    const fetchMock = vi.fn(() =>
      Promise.resolve(json(401, { statusCode: 401, error: 'Unauthorized', message: 'email or password is wrong' })),
    );
    vi.stubGlobal('fetch', fetchMock);
    const store = createConsoleStore({ session: 'anonymous' });
    render(
      <Wrapper store={store} path="/login">
        <AppRoutes />
      </Wrapper>,
    );
    fillAndSubmit('sarah@example.com', 'wrong');
    const error = await screen.findByTestId('login-error');
    expect(error.textContent).toContain('The email or password is wrong.');
    expect(error.getAttribute('role')).toBe('alert');
    expect(fetchMock).toHaveBeenCalledWith('/api/console/login', expect.objectContaining({ method: 'POST' }));
    expect(store.getState().session).toBe('anonymous');
  });

  it('when the login succeeds, then the workspace shows the agent', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        Promise.resolve(url.startsWith('/api/company/details') ? json(200, { data: { name: 'Acme' } }) : json(200, { data: { user: agent } })),
      ),
    );
    const store = createConsoleStore({ session: 'anonymous' });
    render(
      <Wrapper store={store} path="/login">
        <AppRoutes />
      </Wrapper>,
    );
    fillAndSubmit('sarah@example.com', 'right');
    expect((await screen.findByTestId('agent-name')).textContent).toBe('Sarah Miller');
    await waitFor(() => expect(screen.getByTestId('company-name').textContent).toBe('Acme'));
    expect(screen.getByTestId('queue-empty').textContent).toContain('No guests waiting');
  });

  it('when there is no session on load, then the session check answers 200 signed out, nothing fails, and the login page shows', async () => {
    // GET /api/console/session answers 200 {signedIn:false}: a fresh visit leaves no 401 in the browser's console
    const fetchMock = vi.fn((url: string) =>
      Promise.resolve(url === '/api/console/session' ? json(200, { data: { signedIn: false } }) : json(401, { statusCode: 401, error: 'Unauthorized', message: 'no session' })),
    );
    vi.stubGlobal('fetch', fetchMock);
    const store = createConsoleStore();
    const { container } = render(
      <Wrapper store={store}>
        <AppRoutes />
      </Wrapper>,
    );
    await waitFor(() => expect(container.querySelector('[data-screen="login"]')).not.toBeNull());
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/console/session']);
    expect(store.getState().session).toBe('anonymous');
  });

  it('when the session on load is live, then the session check restores the workspace without asking /me', async () => {
    const fetchMock = vi.fn((url: string) =>
      Promise.resolve(
        url === '/api/console/session'
          ? json(200, { data: { signedIn: true, user: agent } })
          : url.startsWith('/api/company/details')
            ? json(200, { data: { name: 'Acme' } })
            : json(401, { statusCode: 401, error: 'Unauthorized', message: 'no session' }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    const store = createConsoleStore();
    render(
      <Wrapper store={store}>
        <AppRoutes />
      </Wrapper>,
    );
    expect((await screen.findByTestId('agent-name')).textContent).toBe('Sarah Miller');
    expect(fetchMock.mock.calls.map(([url]) => url)).not.toContain('/api/console/me');
  });
});
