// The first screen the server renders into the page (src/entry-server.tsx) and the app's take-over of it
// (src/app/takeOver.ts): docs/architecture.md "The guest page".
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderFirstScreen } from '../src/entry-server.tsx';
import { takeOverFirstScreen } from '../src/app/takeOver.ts';
import { FirstScreenRoot } from '../src/app/FirstScreenRoot.tsx';
import { createGuestStore } from '../src/state/store.ts';
import { demoCallActions } from '../src/app/demoCallActions.ts';
import { FIRST_SCREEN_DATA_ID } from '@lobby/contracts/firstScreen';
import type { Company } from '../src/api/company.ts';
import { company } from './helpers.tsx';

const now = new Date('2026-12-02T10:00:00Z'); // a Wednesday
const topics = { assignments: [{ id: 1, name: 'Sales', type: 'queue' as const }, { id: 2, name: 'Support', type: 'queue' as const }] };
const render = (c: Company, acceptLanguage = 'en-GB,en;q=0.9', url = '/') => renderFirstScreen(c, { url, acceptLanguage, now });

// act() from react, without @testing-library (which would say so itself): React's updates are awaited here
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
/** Runs `change` in act() and lets React finish what it scheduled (the hydration, a click's update). */
const settle = (change: () => void) =>
  act(async () => {
    change();
    await Promise.resolve();
  });
beforeEach(() => {
  // happy-dom has no WebRTC: without these the app rightly shows the unsupported screen.
  vi.stubGlobal('RTCPeerConnection', function RTCPeerConnection() {});
  if (!navigator.mediaDevices) {
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: () => Promise.reject(new Error('none')) } });
  }
});
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('the first screen rendered on the server', () => {
  it('when the company is open with topics, then the selection screen shows its name, topics and call buttons', () => {
    const screen = render(company({ name: 'Acme Bank', ...topics, welcomeMsg: 'Hello there' }));
    expect(screen).not.toBeNull();
    expect(screen!.html).toContain('data-screen="selection"');
    expect(screen!.html).toContain('>Acme Bank</h1>');
    expect(screen!.html).toContain('Hello there');
    expect(screen!.html).toContain('>Sales<');
    expect(screen!.html).toContain('>Support<');
    expect(screen!.html).toContain('data-testid="call-button"');
    expect(screen!).toMatchObject({ language: 'en', dir: 'ltr', title: 'Call Acme Bank' });
    expect(screen!.modules).toContain('src/features/selection/SelectionScreen.tsx');
  });

  it('when the name and messages carry markup, then it is text in the screen, never elements', () => {
    const evil = '</script><img src=x onerror=alert(1)>';
    const screen = render(company({ name: `Acme${evil}`, welcomeMsg: evil, logoImageUrl: 'https://x.test/a.png" onerror="alert(1)' }));
    expect(screen!.html).not.toContain('<img src=x');
    expect(screen!.html).not.toContain('</script>');
    expect(screen!.html).toContain('Acme&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    // the logo's URL stays one attribute's value: its quote escaped, no attribute of its own
    expect(screen!.html).toContain('src="https://x.test/a.png&quot; onerror=&quot;alert(1)"');
    expect(screen!.html).not.toContain('onerror="');
  });

  it('when the company speaks Arabic, or a multilingual one meets an Arabic browser, then the screen is Arabic, right to left', () => {
    for (const [c, header] of [
      [company({ language: 'arabic' }), 'en'],
      [company({ language: 'multilingual' }), 'ar-SA,en;q=0.5'],
    ] as const) {
      const screen = render(c, header);
      expect(screen).toMatchObject({ language: 'ar', dir: 'rtl' });
      expect(screen!.html).toContain('بدء'); // "start …" of the call buttons
      expect(screen!.modules).toContain('src/i18n/ar.json');
    }
    expect(render(company({ language: 'multilingual' }), 'en-US,ar;q=0.9')).toMatchObject({ language: 'en', dir: 'ltr' });
  });

  it('when the company shows the preview screen first, then that screen is rendered (its camera starts with the app)', () => {
    const screen = render(company({ previewScreen: true }));
    expect(screen!.html).toContain('data-screen="preview"');
    expect(screen!.html).toContain('data-testid="continue-button"');
    expect(screen!.html).toContain('data-testid="local-video"');
    expect(screen!.modules).toEqual(['src/features/preview/PreviewScreen.tsx']);
  });

  it('when the page is the widget\'s, then nothing is rendered (its website chooses); in a web view, the web view\'s page', () => {
    expect(render(company(), 'en', '/?service=widget&origin=https%3A%2F%2Fshop.test&lang=ar')).toBeNull();
    const webview = render(company(), 'en', '/?webview=true');
    expect(webview!.html).toContain('data-webview="true"');
    expect(render(company())!.html).not.toContain('data-webview');
  });

  it('when the gate needs more than the company (closed, a location check, a welcome form, inactive), then nothing is rendered', () => {
    const closed = { timezone: 'UTC', weekly: [{ day: 3, from: '12:00', to: '17:00' }] };
    expect(render(company({ schedule: closed }))).toBeNull();
    expect(render(company({ schedule: { ...closed, weekly: [{ day: 3, from: '09:00', to: '17:00' }] } }))).not.toBeNull();
    expect(render(company({ requestLocation: true }))).toBeNull();
    expect(render(company({ welcomeForm: true, forms: { welcome: { id: 1, title: 'Welcome', kind: 'welcome', fields: [] }, rating: null } }))).toBeNull();
    expect(render(company({ activated: false }))).toBeNull();
  });
});

/** The page as the server sends it: the markup in #root, the details in their block. */
function servePage(c: Company, acceptLanguage = 'en') {
  const screen = render(c, acceptLanguage)!;
  document.body.innerHTML = `<div id="root">${screen.html}</div><script type="application/json" id="${FIRST_SCREEN_DATA_ID}">${JSON.stringify({ company: c, language: screen.language }).replace(/</g, '\\u003c')}</script>`;
  return document.getElementById('root')!;
}

describe('the app taking the page over', () => {
  it('when it hydrates the server screen, then no mismatch is reported, the elements stay, and the call button works', async () => {
    const c = company({ name: 'Acme</script>', ...topics });
    const container = servePage(c);
    const heading = container.querySelector('h1');
    const takeOver = takeOverFirstScreen(document);
    expect(takeOver).not.toBeNull();
    await takeOver!.ready;
    const store = createGuestStore(takeOver!.state);
    const errors: unknown[] = [];
    const consoleError = vi.spyOn(console, 'error').mockImplementation((...args) => errors.push(args));
    await settle(() => {
      root = hydrateRoot(container, <FirstScreenRoot url="/" store={store} services={{ gate: null }} callActions={demoCallActions(store)} onTakenOver={takeOver!.stopRecording()} />, {
        onRecoverableError: (error) => errors.push(error),
      });
    });
    consoleError.mockRestore();
    expect(errors).toEqual([]);
    expect(container.querySelector('h1')).toBe(heading); // the same element: hydrated, not replaced
    expect(heading?.textContent).toBe('Acme</script>');
    await settle(() => container.querySelectorAll<HTMLInputElement>('input[type="radio"]')[1]!.click());
    await settle(() => container.querySelector<HTMLElement>('[data-testid="call-button"][data-call-kind="video"]')!.click());
    expect(store.getState()).toMatchObject({ screen: 'waiting', callType: 'video', assignmentId: 2 });
  });

  it('when it hydrates the preview screen, then no mismatch is reported and Continue leads to the selection screen', async () => {
    // the camera is being asked for (no answer yet) while the guest presses Continue
    vi.spyOn(navigator.mediaDevices, 'getUserMedia').mockReturnValue(new Promise<MediaStream>(() => undefined));
    const container = servePage(company({ previewScreen: true }));
    const title = container.querySelector('h1');
    const takeOver = takeOverFirstScreen(document)!;
    expect(takeOver.state.screen).toBe('preview');
    await takeOver.ready;
    const store = createGuestStore(takeOver.state);
    const errors: unknown[] = [];
    const consoleError = vi.spyOn(console, 'error').mockImplementation((...args) => errors.push(args));
    await settle(() => {
      root = hydrateRoot(container, <FirstScreenRoot url="/" store={store} services={{ gate: null }} callActions={demoCallActions(store)} onTakenOver={takeOver.stopRecording()} />, {
        onRecoverableError: (error) => errors.push(error),
      });
    });
    consoleError.mockRestore();
    expect(errors).toEqual([]);
    expect(container.querySelector('h1')).toBe(title);
    await settle(() => container.querySelector<HTMLElement>('[data-testid="continue-button"]')!.click());
    expect(store.getState().screen).toBe('selection');
  });

  it('when a call button was pressed before the app took over, then the press is replayed once it has', async () => {
    const container = servePage(company());
    const takeOver = takeOverFirstScreen(document)!;
    container.querySelector<HTMLElement>('[data-call-kind="voice"]')!.click();
    await takeOver.ready;
    const store = createGuestStore(takeOver.state);
    await settle(() => {
      root = hydrateRoot(container, <FirstScreenRoot url="/" store={store} services={{ gate: null }} callActions={demoCallActions(store)} onTakenOver={takeOver.stopRecording()} />);
    });
    expect(store.getState()).toMatchObject({ screen: 'waiting', callType: 'voice' });
  });

  it('when the guest saved another language, or the browser cannot call, then the app renders anew instead', () => {
    servePage(company({ language: 'multilingual' }));
    localStorage.setItem('lobby.language', 'ar');
    expect(takeOverFirstScreen(document)).toBeNull();
    localStorage.clear();
    expect(takeOverFirstScreen(document)).not.toBeNull();
    // an automated browser where the deployment refuses them: the bot screen, not this one
    servePage(company({ allowAutomation: false }));
    expect(takeOverFirstScreen(document)).toBeNull();
  });

  it('when the page carries no first screen, then there is nothing to take over', () => {
    document.body.innerHTML = '<div id="root"></div>';
    expect(takeOverFirstScreen(document)).toBeNull();
    // nor on the widget's page (the server never renders one there)
    servePage(company());
    expect(takeOverFirstScreen(document, '/?service=widget&origin=https%3A%2F%2Fshop.test')).toBeNull();
    expect(takeOverFirstScreen(document, '/')).not.toBeNull();
  });
});
