// Every screen change is the journey chart's: only journey/controller.ts writes the
// store's `screen`, and it does so through the chart's answers.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGuestStore } from '../src/state/store.ts';
import { sendEvent, showWithoutChecks } from '../src/journey/controller.ts';
import type { Company } from '../src/api/company.ts';

const SRC = join(import.meta.dirname, '../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const company = { id: 18, activated: true, previewScreen: true, showRatingPage: false } as Company;

describe('the journey owns the screen', () => {
  it('when the sources are searched, then only the journey controller (and the dev fixtures) write `screen`', () => {
    const writers = sources(SRC)
      .filter((path) => /setState\(\{[^}]*\bscreen\b|setScreen\(/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(SRC, path));
    expect(writers.sort()).toEqual(['app/fixtures.ts', 'journey/controller.ts']);
  });
  it('when the store is made, then it offers no action that sets the screen', () => {
    expect('setScreen' in createGuestStore().getState()).toBe(false);
  });
  it('when the form is sent on a company with a preview, then the controller shows the preview, then selection', () => {
    const store = createGuestStore({ company, screen: 'selection', phase: 'ready' });
    sendEvent(store, { type: 'FORM_DONE' });
    expect(store.getState().screen).toBe('preview');
    sendEvent(store, { type: 'PREVIEW_DONE' });
    expect(store.getState().screen).toBe('selection');
  });
  it('when there are no gate services, then the chart still decides: inactive for a company that is off', () => {
    const store = createGuestStore({ company: { ...company, activated: false }, screen: 'selection' });
    showWithoutChecks(store);
    expect(store.getState().screen).toBe('inactive');
  });
});
