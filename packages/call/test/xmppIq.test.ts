/**
 * The chat protocol's IQ errors and 15 s IQ timeout (docs/protocol.md), on the real StanzaJS client set up as
 * XmppSession configures it (clientConfig): IQs arrive as parsed from the wire, answers are read from what
 * the client sends. No server: the client is never connected.
 */
import { describe, expect, it, vi } from 'vitest';
import { createClient } from 'stanza';
import { parse } from 'stanza/jxt';
import { clientConfig } from '../src/xmpp/session.ts';
import { lobbyStanzas } from '../src/xmpp/stanzas.ts';

function configuredClient() {
  const client = createClient(clientConfig({ wsUrl: 'ws://xmpp.test', jid: 'g1@guest.lobby.test', credential: 'c' }));
  client.use(lobbyStanzas);
  const sent: { kind: string; stanza: Record<string, unknown> }[] = [];
  client.send = ((kind: string, stanza: Record<string, unknown>) => {
    sent.push({ kind, stanza });
    return Promise.resolve();
  }) as typeof client.send;
  /** an IQ as the websocket would deliver it */
  const receive = (xml: string) => client.emit('stream:data', client.stanzas.import(parse(xml))!, 'iq');
  return { client, sent, receive };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
}

describe('XMPP IQs', () => {
  it('when an IQ get arrives that nothing handles, then it is answered service-unavailable (cancel)', async () => {
    const { sent, receive } = configuredClient();
    receive('<iq xmlns="jabber:client" type="get" id="q1" from="lobby.test"><query xmlns="urn:example:unknown"/></iq>');
    await settle();
    expect(sent.map((s) => s.kind)).toEqual(['iq']);
    expect(sent[0]?.stanza).toMatchObject({ id: 'q1', to: 'lobby.test', type: 'error', error: { condition: 'service-unavailable', type: 'cancel' } });
  });

  it('when an IQ set carries two payloads, then it is answered bad-request (modify)', async () => {
    const { sent, receive } = configuredClient();
    receive('<iq xmlns="jabber:client" type="set" id="q2" from="lobby.test"><ping xmlns="urn:xmpp:ping"/><query xmlns="jabber:iq:version"/></iq>');
    await settle();
    expect(sent.map((s) => s.kind)).toEqual(['iq']);
    expect(sent[0]?.stanza).toMatchObject({ id: 'q2', type: 'error', error: { condition: 'bad-request', type: 'modify' } });
  });

  it('when our IQ is never answered, then it fails with timeout after 15 s, auto reconnect on and stream resumption off', async () => {
    const { client } = configuredClient();
    expect(client.config).toMatchObject({ timeout: 15, autoReconnect: true, useStreamManagement: false });
    vi.useFakeTimers();
    try {
      const asked = client.sendIQ({ type: 'get', to: 'lobby.test', ping: true }).catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(14_900);
      let settled = false;
      void asked.then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(200);
      expect(await asked).toMatchObject({ error: { condition: 'timeout' } });
    } finally {
      vi.useRealTimers();
    }
  });
});
