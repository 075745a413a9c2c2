/**
 * `--timeline` for bench/call-setup.ts: page-side marks of the steps between the Answer click and the
 * first presented frame, on the machine's one clock (performance.timeOrigin + performance.now()), so that
 * the two pages' marks line up. What is marked: the media grant's fetch, each Janus request and answer
 * on the websocket (verb and videoroom request or event), each peer connection's creation, remote
 * description, connection, ICE and gathering states and local candidates, and (polled every 20 ms, only
 * while armed) the first video packet received and the first frame decoded of each peer connection, and
 * each keyframe a publisher encodes, with the send rate its bandwidth estimate allowed then. The polling
 * costs the measured page a little: timeline runs show where the time goes, the plain runs give the
 * figures.
 */
import type { BrowserContext, Page } from 'playwright-core';

export interface Mark {
  t: number;
  what: string;
}

/** Installs the marks in every page of the context (before any of the page's own scripts). */
export async function installTimeline(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    interface JanusMessage {
      janus?: string;
      type?: string;
      body?: { request?: string };
      jsep?: { type?: string };
      plugindata?: { data?: { videoroom?: string; publishers?: unknown[]; started?: string } };
    }
    const w = window as unknown as { __marks: { t: number; what: string }[]; __pcs: RTCPeerConnection[] };
    w.__marks = [];
    w.__pcs = [];
    const now = () => performance.timeOrigin + performance.now();
    const mark = (what: string) => w.__marks.push({ t: now(), what });
    const janusText = (text: unknown, out: boolean): string | null => {
      if (typeof text !== 'string') return null;
      let m: JanusMessage;
      try {
        m = JSON.parse(text) as JanusMessage;
      } catch {
        return null;
      }
      if (m.janus === 'ack' || m.janus === 'keepalive') return null;
      const body = m.body?.request ?? '';
      const data = m.plugindata?.data ?? {};
      const event = data.videoroom
        ? `${data.videoroom}${data.publishers?.length ? ` publishers=${data.publishers.length}` : ''}${data.started ? ' started' : ''}`
        : '';
      return `${out ? '→' : '←'} janus ${m.janus ?? ''}${body ? `/${body}` : ''}${event ? ` ${event}` : ''}${m.jsep ? ` jsep:${m.jsep.type ?? ''}` : ''}${m.type ? ` ${m.type}` : ''}`;
    };
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      readonly #janus: boolean;
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        this.#janus = String(url).includes('/janus');
        if (!this.#janus) return;
        mark('janus websocket opening');
        this.addEventListener('open', () => mark('janus websocket open'));
        this.addEventListener('message', (e: MessageEvent) => {
          const what = janusText(e.data, false);
          if (what) mark(what);
        });
      }
      override send(data: string | Blob | BufferSource): void {
        const what = this.#janus ? janusText(data, true) : null;
        if (what) mark(what);
        super.send(data);
      }
    };
    const nativeFetch = window.fetch.bind(window);
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const path = new URL(url, location.href).pathname;
      mark(`fetch ${init?.method ?? 'GET'} ${path}`);
      const res = await nativeFetch(input, init);
      mark(`fetched ${path} ${res.status}`);
      return res;
    };
    const NativePC = window.RTCPeerConnection;
    window.RTCPeerConnection = class extends NativePC {
      readonly #n: number;
      constructor(config?: RTCConfiguration) {
        super(config);
        const n = (this.#n = w.__pcs.push(this));
        mark(`pc${n} created`);
        this.addEventListener('connectionstatechange', () => mark(`pc${n} ${this.connectionState}`));
        this.addEventListener('iceconnectionstatechange', () => mark(`pc${n} ice ${this.iceConnectionState}`));
        this.addEventListener('icegatheringstatechange', () => mark(`pc${n} gathering ${this.iceGatheringState}`));
        this.addEventListener('icecandidate', (e: RTCPeerConnectionIceEvent) => {
          const c = e.candidate?.candidate.split(' ');
          mark(c ? `pc${n} candidate ${c[7] ?? ''} ${c[2] ?? ''} ${c[4] ?? ''}` : `pc${n} candidates done`);
        });
      }
      override setRemoteDescription(d: RTCSessionDescriptionInit): Promise<void> {
        mark(`pc${this.#n} remote ${d.type}`);
        return super.setRemoteDescription(d);
      }
    };
  });
}

/** Starts polling the page's peer connections for their first video packet and first decoded frame. */
export function startPolling(page: Page): Promise<void> {
  return page.evaluate(() => {
    const w = window as unknown as { __marks: { t: number; what: string }[]; __pcs: RTCPeerConnection[]; __poll?: number };
    const seen = new Set<string>();
    const keyframes = new Map<string, number>();
    const now = () => performance.timeOrigin + performance.now();
    w.__marks.length = 0;
    clearInterval(w.__poll);
    w.__poll = window.setInterval(() => {
      w.__pcs.forEach((pc, i) => {
        if (pc.connectionState === 'closed') return;
        void pc.getStats().then((stats) => {
          stats.forEach((s: RTCStats & Partial<RTCInboundRtpStreamStats> & { keyFramesEncoded?: number; availableOutgoingBitrate?: number; nominated?: boolean }) => {
            const key = `pc${i + 1}`;
            // a publisher: each keyframe it encodes (a keyframe request answered), with the send rate allowed then
            if (s.type === 'outbound-rtp' && s.kind === 'video' && (s.keyFramesEncoded ?? 0) > (keyframes.get(key) ?? 0)) {
              keyframes.set(key, s.keyFramesEncoded ?? 0);
              const pair = [...stats.values()].find((p: { type: string; nominated?: boolean }) => p.type === 'candidate-pair' && p.nominated) as
                | { availableOutgoingBitrate?: number }
                | undefined;
              const rate = pair?.availableOutgoingBitrate ? ` (send rate ${Math.round(pair.availableOutgoingBitrate / 1000)} kbit/s)` : '';
              // the picture sent, and how many frames the camera gave before (frames the encoder dropped)
              const out = s as { frameWidth?: number; frameHeight?: number; framesEncoded?: number; qualityLimitationReason?: string; mediaSourceId?: string };
              const source = out.mediaSourceId ? (stats.get(out.mediaSourceId) as { frames?: number } | undefined) : undefined;
              const picture = ` ${out.frameWidth ?? '?'}×${out.frameHeight ?? '?'}, ${out.framesEncoded ?? '?'} encoded of ${source?.frames ?? '?'} captured, limited by ${out.qualityLimitationReason ?? '?'}`;
              w.__marks.push({ t: now(), what: `${key} keyframe #${s.keyFramesEncoded ?? 0} encoded${rate}${picture}` });
            }
            if (s.type !== 'inbound-rtp' || s.kind !== 'video') return;
            if ((s.packetsReceived ?? 0) > 0 && !seen.has(`${key}p`)) {
              seen.add(`${key}p`);
              w.__marks.push({ t: now(), what: `${key} first video packet` });
            }
            if ((s.keyFramesDecoded ?? 0) > 0 && !seen.has(`${key}k`)) {
              seen.add(`${key}k`);
              w.__marks.push({ t: now(), what: `${key} first frame decoded` });
            }
          });
        });
      });
    }, 20);
  });
}

/** The marks since polling started, relative to `from`; stops the polling. */
export async function collect(page: Page, from: number): Promise<string[]> {
  const marks = await page.evaluate(() => {
    const w = window as unknown as { __marks: { t: number; what: string }[]; __poll?: number };
    clearInterval(w.__poll);
    return w.__marks.splice(0);
  });
  return marks.map((m) => `${(m.t - from).toFixed(0).padStart(6)} ms  ${m.what}`);
}
