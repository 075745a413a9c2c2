/**
 * The custom presence element on the wire (SPEC.md §3 "Presence (custom)"; docs/protocol.md): what the
 * other side and any XMPP client reads, not what the engine means.
 */
import { describe, expect, it } from 'vitest';
import * as XMPP from 'stanza';
import { lobbyStanzas } from '../src/xmpp/stanzas.ts';

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

  it('when a name is announced, then it travels as the name attribute', () => {
    expect(wire({ userType: 'agent', appointmentID: '', name: 'Demo Agent' })).toContain('name="Demo Agent"');
  });
});
