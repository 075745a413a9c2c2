import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { AppRoutes } from '../src/app/App.tsx';
import { createGuestStore } from '../src/state/store.ts';
import { resolveLanguage } from '../src/i18n/language.ts';
import { company, Wrapper } from './helpers.tsx';

beforeEach(() => {
  // happy-dom has no WebRTC: without these the app rightly shows the unsupported screen.
  vi.stubGlobal('RTCPeerConnection', function RTCPeerConnection() {});
  if (!navigator.mediaDevices) {
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: () => Promise.reject(new Error('none')) } });
  }
  document.documentElement.dir = 'ltr';
  document.documentElement.lang = 'en';
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('language', () => {
  it('when the company language is arabic, then the page is Arabic and rtl', async () => {
    const store = createGuestStore();
    render(
      <Wrapper store={store} services={{ loadCompany: () => Promise.resolve(company({ language: 'arabic', name: 'شركة' })) }}>
        <AppRoutes />
      </Wrapper>,
    );
    await waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(document.documentElement.lang).toBe('ar');
    expect(await screen.findByText('بدء مكالمة فيديو')).toBeTruthy();
    expect(screen.queryByTestId('language-switch')).toBeNull();
  });

  it('when the company is multilingual, then the header shows the language switch', async () => {
    const store = createGuestStore();
    render(
      <Wrapper store={store} services={{ loadCompany: () => Promise.resolve(company({ language: 'multilingual' })) }}>
        <AppRoutes />
      </Wrapper>,
    );
    expect(await screen.findByTestId('language-switch')).toBeTruthy();
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('when the language is anything else, then English is used whatever the browser says', () => {
    expect(resolveLanguage({ language: 'english' }, null, 'ar-SA')).toBe('en');
    expect(resolveLanguage({ language: 'multilingual' }, null, 'ar-SA')).toBe('ar');
    expect(resolveLanguage({ language: 'multilingual' }, 'en', 'ar-SA')).toBe('en');
  });

  it('when the company fails to load, then the error screen shows and retry loads again', async () => {
    const store = createGuestStore();
    let calls = 0;
    const loadCompany = () => (++calls === 1 ? Promise.reject(new Error('down')) : Promise.resolve(company()));
    render(
      <Wrapper store={store} services={{ loadCompany }}>
        <AppRoutes />
      </Wrapper>,
    );
    (await screen.findByTestId('retry-button')).click();
    await waitFor(() => expect(store.getState().screen).toBe('selection'));
    expect(store.getState().phase).toBe('ready');
  });

  it('when the browser has no WebRTC, then the unsupported screen says what to do', async () => {
    vi.stubGlobal('RTCPeerConnection', undefined);
    const store = createGuestStore();
    const { container } = render(
      <Wrapper store={store} services={{ loadCompany: () => Promise.resolve(company()) }}>
        <AppRoutes />
      </Wrapper>,
    );
    await waitFor(() => expect(container.querySelector('[data-screen="unsupported"]')).not.toBeNull());
    expect(store.getState().unsupportedReason).toBe('browser');
  });

  it('when the company is not activated, then the inactive screen shows', async () => {
    const store = createGuestStore();
    const { container } = render(
      <Wrapper store={store} services={{ loadCompany: () => Promise.resolve(company({ activated: false })) }}>
        <AppRoutes />
      </Wrapper>,
    );
    await waitFor(() => expect(container.querySelector('[data-screen="inactive"]')).not.toBeNull());
  });

  it('when the path is unknown, then a friendly not-found page shows', async () => {
    const store = createGuestStore();
    const { container } = render(
      <Wrapper store={store} path="/no/such/page">
        <AppRoutes />
      </Wrapper>,
    );
    await waitFor(() => expect(container.querySelector('[data-screen="not-found"]')).not.toBeNull());
  });

  it('when opened at /appointment/:reference?webview=true, then both land in the store', async () => {
    const store = createGuestStore();
    render(
      <Wrapper store={store} path="/appointment/ABC123?webview=true" services={{ loadCompany: () => Promise.resolve(company()) }}>
        <AppRoutes />
      </Wrapper>,
    );
    await waitFor(() => expect(store.getState().appointmentReference).toBe('ABC123'));
    expect(store.getState().webview).toBe(true);
  });
});
