import { describe, expect, it } from 'vitest';
import type { RemoteFeed } from '@lobby/call';
import { stageLayout } from '../src/stageLayout.ts';

const feed = (feedId: string, display: string): RemoteFeed => ({ feedId, display, stream: {} as MediaStream });
const guest = feed('1', 'g1');
const supervisor = feed('2', 'sup@lobby.local');
const agent = feed('3', 'sarah@lobby.local');
const screen = feed('4', 'g1-screen');

describe('the call stage layout', () => {
  it('when nobody was chosen and no one is preferred, then the first camera is large and the others follow in arrival order', () => {
    const layout = stageLayout({ feeds: [agent, supervisor, screen], mainUser: null, zoomed: false });
    expect(layout.main).toBe(agent);
    expect(layout.others).toEqual([supervisor]);
    expect(layout.cameras).toEqual([agent, supervisor]);
  });

  it('when the console prefers the guest, then the guest is large even after a supervisor arrived first', () => {
    const layout = stageLayout({ feeds: [supervisor, guest], mainUser: null, zoomed: false, preferred: 'g1' });
    expect(layout.main).toBe(guest);
    expect(layout.preferredFeed).toBe(guest);
    expect(layout.others).toEqual([supervisor]);
  });

  it('when a participant was chosen, then the choice wins over the preferred one', () => {
    const layout = stageLayout({ feeds: [guest, supervisor], mainUser: 'sup@lobby.local', zoomed: false, preferred: 'g1' });
    expect(layout.main).toBe(supervisor);
    expect(layout.others).toEqual([guest]);
  });

  it('when the chosen participant left, then the stage falls back to the preferred one', () => {
    const layout = stageLayout({ feeds: [supervisor, guest], mainUser: 'gone@lobby.local', zoomed: false, preferred: 'g1' });
    expect(layout.main).toBe(guest);
  });

  it('when a screen is shared, then it is never a camera, and it is large only when zoomed', () => {
    const small = stageLayout({ feeds: [screen, guest], mainUser: null, zoomed: false });
    expect(small.main).toBe(guest);
    expect(small.screen).toBe(screen);
    expect(small.zoomedScreen).toBeNull();
    expect(small.others).toEqual([]);
    expect(stageLayout({ feeds: [screen, guest], mainUser: null, zoomed: true }).zoomedScreen).toBe(screen);
  });

  it('when no camera has arrived, then nobody is large', () => {
    const layout = stageLayout({ feeds: [], mainUser: 'g1', zoomed: true, preferred: 'g1' });
    expect(layout).toMatchObject({ main: null, others: [], preferredFeed: null, screen: null, zoomedScreen: null });
  });
});
