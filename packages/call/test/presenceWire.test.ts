/**
 * The custom presence element on the wire (docs/protocol.md "Identifiers", "Presence"): what the
 * other side and any XMPP client reads, not what the engine means.
 */
import { describe, expect, it } from 'vitest';
import * as XMPP from 'stanza';
import { parse } from 'stanza/jxt';
import { lobbyStanzas } from '../src/xmpp/stanzas.ts';
import { presenceImageUrl } from '../src/presence.ts';

function wire(lobby: Record<string, unknown>): string {
  const client = XMPP.createClient({});
  lobbyStanzas(client, client.stanzas);
  return client.stanzas.export('presence', { to: 'room@conference.lobby.local/g1', status: 'OpenCall||g1--x', lobby })!.toString();
}

describe('the lobby presence element on the wire', () => {
  it('when a guest has no appointment, then appointmentID is sent empty (not left out)', () => {
    expect(wire({ userType: 'guest', appointmentID: '' })).toContain('appointmentID=""');
  });

  it('when a side is muted, then the flags read "1" as docs/protocol.md says, and an unmuted side sends none', () => {
    const muted = wire({ userType: 'agent', appointmentID: '', audioMuted: true, videoMuted: true });
    expect(muted).toContain('audioMuted="1"');
    expect(muted).toContain('videoMuted="1"');
    expect(wire({ userType: 'agent', appointmentID: '' })).not.toContain('Muted=');
  });

  it('when a side\'s line is weak, then its step travels as lineStep, and a good line sends none (docs/protocol.md "Line steps")', () => {
    const xml = wire({ userType: 'guest', appointmentID: '', lineStep: 'audioOnly' });
    expect(xml).toContain('lineStep="audioOnly"');
    const client = XMPP.createClient({});
    lobbyStanzas(client, client.stanzas);
    expect((client.stanzas.import(parse(xml)) as { lobby?: { lineStep?: string } }).lobby?.lineStep).toBe('audioOnly');
    expect(wire({ userType: 'guest', appointmentID: '' })).not.toContain('lineStep');
  });

  it('when a name is announced, then it travels as the name attribute', () => {
    expect(wire({ userType: 'agent', appointmentID: '', name: 'Demo Agent' })).toContain('name="Demo Agent"');
  });

  it('when an agent has a picture, then it travels as the profileImageUrl attribute and reads back the same', () => {
    const xml = wire({ userType: 'agent', appointmentID: '', name: 'Demo Agent', profileImageUrl: '/api/profile-images/AbCdEf0123456789xyz_-' });
    expect(xml).toContain('profileImageUrl="/api/profile-images/AbCdEf0123456789xyz_-"');
    const client = XMPP.createClient({});
    lobbyStanzas(client, client.stanzas);
    const parsed = client.stanzas.import(parse(xml)) as { lobby?: { profileImageUrl?: string; name?: string } };
    expect(parsed.lobby).toMatchObject({ name: 'Demo Agent', profileImageUrl: '/api/profile-images/AbCdEf0123456789xyz_-' });
    expect(wire({ userType: 'agent', appointmentID: '' })).not.toContain('profileImageUrl');
  });

  it('when a picture address is not a path of ours or https, then the guest takes none', () => {
    expect(presenceImageUrl('/api/profile-images/abc')).toBe('/api/profile-images/abc');
    expect(presenceImageUrl('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
    for (const bad of ['javascript:alert(1)', 'data:image/png;base64,AA', 'http://x.test/a.png', '//evil.test/a.png', '/a b.png', '/a".png', '', undefined, `/${'a'.repeat(300)}`]) {
      expect(presenceImageUrl(bad), String(bad)).toBeUndefined();
    }
  });
});
