/**
 * The guests in rooms as one ejabberd node's own table says (`lobby_room_guests`, mod_lobby_guest_filter):
 * a room is listed by the node that holds it. Read by the scale journeys and the cluster bench.
 */
export interface RoomGuest {
  room: string;
  user: string;
}

/** The node's rooms with a guest in them; null when the node does not answer within 5 s. */
export async function roomGuestsOn(apiUrl: string, muc: string, guestHost: string): Promise<RoomGuest[] | null> {
  const res = await fetch(`${apiUrl}/lobby_room_guests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ service: muc, guest_host: guestHost }),
    signal: AbortSignal.timeout(5000),
  }).catch(() => null);
  return res?.ok ? ((await res.json()) as RoomGuest[]) : null;
}
