import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createGuestStore } from '../src/state/store.ts';
import { WelcomeForm } from '../src/features/selection/WelcomeForm.tsx';
import { bindWidgetBridge } from '../src/features/widget/bridge.ts';
import { company, Wrapper } from './helpers.tsx';

afterEach(cleanup);

const WEBSITE = 'https://shop.example.com';
const welcome = {
  id: 7,
  kind: 'welcome' as const,
  title: 'Before we call',
  fields: [
    { key: 'name', type: 'text' as const, label: 'Your name', required: true, order: 0 },
    { key: 'email', type: 'email' as const, label: 'Your email', required: true, order: 1 },
  ],
};

/** The website's widget (the embedding window) sends a message to the call page. */
function fromWebsite(peer: object, data: Record<string, unknown>) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data: { source: 'lobby-widget', ...data }, origin: WEBSITE, source: peer as Window }));
  });
}

describe('the website pre-fills the welcome form', () => {
  // (the pre-fill is the page's own state: the test that pre-fills runs last)
  it('when a message comes from another origin, then nothing is filled', () => {
    const details = company({ widgetOrigins: [WEBSITE], forms: { welcome, rating: null } });
    const store = createGuestStore({ phase: 'ready', company: details, screen: 'selection' });
    const peer = { postMessage: () => undefined };
    const bridge = bindWidgetBridge(store, { origin: WEBSITE, language: null, assignment: null }, peer as unknown as Window);
    try {
      render(
        <Wrapper store={store}>
          <WelcomeForm />
        </Wrapper>,
      );
      act(() => {
        window.dispatchEvent(
          new MessageEvent('message', { data: { source: 'lobby-widget', type: 'prefill', guest: { name: 'Mallory' } }, origin: 'https://evil.example', source: peer as unknown as Window }),
        );
      });
      expect(screen.getByLabelText<HTMLInputElement>(/Your name/).value).toBe('');
    } finally {
      bridge.dispose();
    }
  });
  it('when the pre-fill arrives after the form is shown, then the empty fields take it and typed ones stay', () => {
    const details = company({ widgetOrigins: [WEBSITE], forms: { welcome, rating: null } });
    const store = createGuestStore({ phase: 'ready', company: details, screen: 'selection' });
    const peer = { postMessage: () => undefined };
    const bridge = bindWidgetBridge(store, { origin: WEBSITE, language: null, assignment: null }, peer as unknown as Window);
    try {
      render(
        <Wrapper store={store}>
          <WelcomeForm />
        </Wrapper>,
      );
      const name = screen.getByLabelText<HTMLInputElement>(/Your name/);
      const email = screen.getByLabelText<HTMLInputElement>(/Your email/);
      expect(name.value).toBe('');

      fromWebsite(peer, { type: 'init', language: null, assignment: null, guest: { name: 'Dana Haddad', email: 'dana@example.org' } });
      expect(name.value).toBe('Dana Haddad');
      expect(email.value).toBe('dana@example.org');

      fireEvent.change(name, { target: { value: 'Dana H.' } });
      fireEvent.change(email, { target: { value: '' } });
      fromWebsite(peer, { type: 'prefill', guest: { name: 'Someone Else', email: 'dana.haddad@example.org' } });
      expect(name.value).toBe('Dana H.');
      expect(email.value).toBe('dana.haddad@example.org');
    } finally {
      bridge.dispose();
    }
  });

});
