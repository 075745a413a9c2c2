/**
 * The server's own videoroom requests, straight to Janus's HTTP API on loopback (never through the public
 * gate): create a call's room, start its recording, destroy it. It carries the server's token (no room:
 * the gate would refuse it), the videoroom admin_key (only holders create rooms) and each room's secret.
 */
import { randomBytes } from 'node:crypto';
import type { JanusTokens } from './janusTokens.ts';
import { VIDEOROOM } from './janusTokens.ts';

export interface RoomSpec {
  room: string;
  pin: string;
  secret: string;
  /** where Janus writes the room's .mjr files once the server enables recording */
  recDir: string;
  webview: boolean;
}

export interface JanusVideoroomAdmin {
  create(spec: RoomSpec): Promise<void>;
  enableRecording(room: string, secret: string): Promise<void>;
  /** whether Janus has the room (false after a restart of Janus: its rooms live in its memory) */
  exists(room: string): Promise<boolean>;
  /** true when destroyed, false when Janus no longer had it */
  destroy(room: string, secret: string): Promise<boolean>;
}

export class JanusAdminError extends Error {
  readonly code: number | undefined;
  constructor(message: string, code?: number) {
    super(message);
    this.name = 'JanusAdminError';
    this.code = code;
  }
}

/** videoroom error codes (janus_videoroom.c) we handle */
export const NO_SUCH_ROOM = 426;
export const ROOM_EXISTS = 427;

export function createJanusVideoroomAdmin(httpUrl: string, adminKey: string, tokens: JanusTokens): JanusVideoroomAdmin {
  const base = httpUrl.replace(/\/+$/, '');
  const post = async (url: string, body: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, transaction: randomBytes(8).toString('hex'), token: tokens.mint(null, 60).token }),
      signal: AbortSignal.timeout(5000),
    });
    const answer = (await res.json()) as Record<string, unknown>;
    const error = answer.error as { code?: number; reason?: string } | undefined;
    if (answer.janus === 'error') throw new JanusAdminError(`janus: ${error?.reason ?? 'error'}`, error?.code);
    return answer;
  };

  /** One synchronous videoroom request on a session of its own, which is destroyed afterwards. */
  async function request(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const session = (await post(base, { janus: 'create' })).data as { id: number };
    const url = `${base}/${session.id}`;
    try {
      const handle = (await post(url, { janus: 'attach', plugin: VIDEOROOM })).data as { id: number };
      const answer = await post(`${url}/${handle.id}`, { janus: 'message', body });
      const data = (answer.plugindata as { data?: Record<string, unknown> } | undefined)?.data ?? {};
      if (data.videoroom === 'event' && data.error_code) {
        throw new JanusAdminError(`videoroom ${String(body.request)}: ${String(data.error)}`, Number(data.error_code));
      }
      return data;
    } finally {
      await post(url, { janus: 'destroy' }).catch(() => undefined);
    }
  }

  return {
    async create(spec) {
      await request({
        request: 'create',
        admin_key: adminKey,
        room: spec.room,
        secret: spec.secret,
        pin: spec.pin,
        is_private: true,
        description: spec.room,
        // at most 10 publishers (docs/protocol.md "Constants")
        publishers: 10,
        videoorient_ext: false,
        // sound first (docs/protocol.md "Line steps"): Opus's in-band FEC negotiated (useinbandfec=1), so a
        // lost audio packet is rebuilt from the next one; no DTX (the stall watch counts on a packet each 20 ms)
        opus_fec: true,
        ...(spec.webview ? { videocodec: 'h264', h264_profile: '42e01f' } : {}),
        // recording: decided and started by the server (enable_recording), never by a participant
        record: false,
        lock_record: true,
        rec_dir: spec.recDir,
      });
    },
    async enableRecording(room, secret) {
      await request({ request: 'enable_recording', room, secret, record: true });
    },
    async exists(room) {
      return (await request({ request: 'exists', room })).exists === true;
    },
    async destroy(room, secret) {
      try {
        await request({ request: 'destroy', room, secret });
        return true;
      } catch (error) {
        if (error instanceof JanusAdminError && error.code === NO_SUCH_ROOM) return false;
        throw error;
      }
    },
  };
}
