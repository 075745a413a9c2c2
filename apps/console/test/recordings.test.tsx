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

const supervisor = { ...agent, id: 3, name: 'Sam Supervisor', role: 'supervisor' as const };
const rows = [
  { callId: 'gaaa--one', serviceType: 'widget', size: 2_097_152, createdAt: Date.parse('2026-05-04T10:00:00Z'), url: '/api/console/recordings/gaaa--one/file', tracksUrl: '/api/console/recordings/gaaa--one/tracks',
    guestUsername: 'g4bf8db1a8bcf98a4', guestName: null, agentName: 'Dana Agent', talkSeconds: 312.4, rating: { score: 4, comment: 'Helpful' } },
  { callId: 'gbbb--two', serviceType: 'talk', size: 1_048_576, createdAt: Date.parse('2026-05-04T09:00:00Z'), url: '/api/console/recordings/gbbb--two/file',
    guestUsername: 'g77aa01', guestName: 'Mona Haddad', agentName: null, talkSeconds: null, rating: null },
];

/** Opens the recordings page as a supervisor and waits for both rows. */
async function openAsSupervisor() {
  const store = createConsoleStore({ session: 'authenticated', user: supervisor });
  render(
    <Wrapper store={store} path="/recordings">
      <AppRoutes />
    </Wrapper>,
  );
  await waitFor(() => expect(screen.getAllByTestId('recording-row')).toHaveLength(2));
}

describe('console recordings page', () => {
  it('when an agent opens the recordings page, then it is sent back to its workspace and nothing is listed', () => {
    const fetch = vi.fn((_url: string) => Promise.resolve(json(200, { data: { name: 'Acme' } })));
    vi.stubGlobal('fetch', fetch);
    const store = createConsoleStore({ session: 'authenticated', user: agent });
    render(
      <Wrapper store={store} path="/recordings">
        <AppRoutes />
      </Wrapper>,
    );
    expect(document.querySelector('[data-screen="workspace"]')).not.toBeNull();
    expect(screen.queryByTestId('recording-row')).toBeNull();
    expect(fetch.mock.calls.some(([url]) => String(url).startsWith('/api/console/recordings'))).toBe(false);
  });

  it('when a supervisor picks a service and deletes a recording, then the list is asked for that service and the delete goes to the server', async () => {
    const calls: Array<{ url: string; method: string }> = [];
    let listed = rows;
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init?: RequestInit) => {
        const method = init?.method ?? 'GET';
        calls.push({ url, method });
        if (url.startsWith('/api/console/recordings?')) {
          const service = new URL(url, 'http://x').searchParams.get('service');
          return Promise.resolve(json(200, { data: { recordings: listed.filter((r) => service === 'all' || r.serviceType === service) } }));
        }
        if (method === 'DELETE') {
          listed = listed.filter((r) => !url.endsWith(encodeURIComponent(r.callId)));
          return Promise.resolve(json(200, { data: { callId: 'gaaa--one', deleted: true } }));
        }
        return Promise.resolve(json(200, { data: { name: 'Acme' } }));
      }),
    );
    vi.stubGlobal('confirm', vi.fn(() => true));
    await openAsSupervisor();

    fireEvent.click(screen.getByTestId('service-widget'));
    await waitFor(() => expect(screen.getAllByTestId('recording-row')).toHaveLength(1));
    expect(calls.at(-1)?.url).toBe('/api/console/recordings?service=widget');
    expect(screen.getByTestId('recording-row').getAttribute('data-call-id')).toBe('gaaa--one');

    fireEvent.click(screen.getByTestId('recording-delete'));
    await waitFor(() => expect(screen.queryByTestId('recording-row')).toBeNull());
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/console/recordings/gaaa--one');
  });

  it('when a recording has raw tracks, then the row offers them as a second download beside the MP4', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        Promise.resolve(url.startsWith('/api/console/recordings?') ? json(200, { data: { recordings: rows } }) : json(200, { data: { name: 'Acme' } })),
      ),
    );
    await openAsSupervisor();
    const tracks = screen.getAllByTestId('recording-tracks');
    expect(tracks).toHaveLength(1);
    expect(tracks[0]?.getAttribute('href')).toBe('/api/console/recordings/gaaa--one/tracks');
    expect(tracks[0]?.getAttribute('download')).toBe('gaaa--one.tracks.mkv');
    expect(tracks[0]?.textContent).toContain('Separate tracks');
    expect(document.querySelector('a[href="/api/console/recordings/gbbb--two/file"]')?.getAttribute('download')).toBe('gbbb--two.mp4');
  });

  it('when recordings are listed, then each row names the guest as the queue does, the agent who answered, the talk time and the rating', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        Promise.resolve(url.startsWith('/api/console/recordings?') ? json(200, { data: { recordings: rows } }) : json(200, { data: { name: 'Acme' } })),
      ),
    );
    await openAsSupervisor();
    const cells = (testId: string) => screen.getAllByTestId(testId).map((cell) => cell.textContent);
    // the guest without a name is "Guest" and the last four of its username, as in the queue
    expect(cells('recording-guest')).toEqual(['Guest 98A4', 'Mona Haddad']);
    expect(cells('recording-agent')).toEqual(['Dana Agent', '–']);
    expect(cells('recording-duration')).toEqual(['312.4 s', '–']);
    expect(cells('recording-rating')).toEqual(['4 / 5Helpful', '–']);
    // the raw call id is not what names a row
    expect(screen.queryByText('gaaa--one')).toBeNull();
    expect(screen.getAllByTestId('recording-delete')[0]?.getAttribute('aria-label')).toMatch(/^Delete the recording of Guest 98A4, /);
  });
});
