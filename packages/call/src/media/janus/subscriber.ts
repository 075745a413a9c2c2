/**
 * The one multistream subscriber that carries every other participant's feeds (docs/protocol.md "Media
 * session", "Media room"): it joins the room with its first subscription and adds feeds with `subscribe`,
 * one negotiation at a time; Janus's offers are answered (`start`), and the remote tracks are gathered
 * into one MediaStream per feed. Its handle is attached beside the publisher's, ahead of the first
 * subscription (one round trip saved). Janus's session destroy ends it (no cleanup of its own).
 */
import type { Publisher, RemoteFeed, RoomOptions, TellMedia } from '../../ports/media.ts';
import { reusedTracks } from '../reusedTracks.ts';
import type { JanusConnection } from './connection.ts';
import type { Attach, Handle, Jsep, Message } from './library.ts';

export interface JanusSubscriberOptions {
  connection: JanusConnection;
  attach: Attach;
  tell: TellMedia;
  /** Janus's offer came for the subscriber (its ICE restart is answered) */
  answered: () => void;
  /** the room, and our publisher's private id in it (set once joined) */
  room: () => RoomOptions | null;
  privateId: () => number | undefined;
  /** our own camera or screen publisher: not subscribed to */
  isOwn: (publisher: Publisher) => boolean;
}

export class JanusSubscriber {
  readonly #o: JanusSubscriberOptions;
  #handle: Handle | null = null;
  /** the handle's attach, started beside the publisher's */
  #attaching: Promise<Handle> | null = null;
  /** the handle joined the room (its first subscription); later ones are `subscribe` */
  #joined = false;
  /** feeds we asked for or receive, by feed id */
  readonly #feeds = new Map<string, { display: string; stream: MediaStream | null }>();
  /** subscriber mid → feed id, from the subscriber's `streams` lists */
  readonly #midToFeed = new Map<string, string>();
  #queue: Promise<void> = Promise.resolve();
  #afterAnswer: (() => void) | null = null;
  /** what new remote tracks would tell while our answer to Janus's offer is being made (null: none made) */
  #heldFeeds: (() => void)[] | null = null;

  constructor(options: JanusSubscriberOptions) {
    this.#o = options;
  }

  get handle(): Handle | null {
    return this.#handle;
  }

  /** The subscriber handle: the one attached beside the publisher, or one attached now. */
  attached(): Promise<Handle> {
    this.#attaching ??= this.#o
      .attach('subscriber', {
        onmessage: (msg, jsep) => this.#onMessage(msg, jsep),
        onremotetrack: (track, mid, on, metadata) => this.#onRemoteTrack(track, mid, on, metadata?.reason),
      })
      .then((handle) => (this.#handle = handle));
    return this.#attaching;
  }

  /** Starts the attach ahead; its failure is the first subscription's to report (it attaches again). */
  prepare(): void {
    const attaching = this.attached();
    attaching.catch(() => {
      if (this.#attaching === attaching) this.#attaching = null;
    });
  }

  /** Subscribes to new publishers (skipping our own camera and screen). Queued: one negotiation at a time. */
  subscribeTo(publishers: Publisher[]): void {
    const fresh = publishers.filter((p) => !this.#o.isOwn(p) && !this.#feeds.has(String(p.id)));
    if (!fresh.length) return;
    for (const p of fresh) this.#feeds.set(String(p.id), { display: p.display, stream: null });
    for (const p of fresh) this.#o.tell('publisherJoined', { feedId: String(p.id), display: p.display });
    // diagnostics (the guest's console buffer goes with its reports): the subscriptions' order of events
    console.info(`media: subscribing to ${fresh.map((p) => String(p.id)).join(', ')}`);
    const streams = fresh.map((p) => ({ feed: p.id }));
    this.#queue = this.#queue
      .then(() => this.#negotiate(streams))
      .catch((error: unknown) => this.#o.tell('error', error instanceof Error ? error : new Error(String(error))));
  }

  async #negotiate(streams: { feed: string }[]): Promise<void> {
    const { connection } = this.#o;
    const room = this.#o.room();
    if (connection.ended || !room) return;
    let answered: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (answered = resolve));
    this.#afterAnswer = answered;
    if (!this.#joined) {
      // attached beside the publisher (prepare): usually there already, one round trip saved
      const subscriber = await this.attached();
      if (connection.ended) return;
      this.#joined = true;
      const privateId = this.#o.privateId();
      await connection.retried(() =>
        connection.request(subscriber, {
          request: 'join',
          ptype: 'subscriber',
          room: room.room,
          pin: room.pin.toLowerCase(),
          streams,
          ...(privateId !== undefined ? { private_id: privateId } : {}),
        }),
      );
    } else {
      const subscriber = this.#handle!;
      await connection.retried(() => connection.request(subscriber, { request: 'subscribe', streams }));
    }
    await done;
  }

  #onMessage(msg: Message, jsep?: Jsep): void {
    const streams = msg.streams as { mid: string; feed_id?: string | number; feed_display?: string }[] | undefined;
    for (const s of streams ?? []) {
      if (s.feed_id === undefined) continue;
      this.#midToFeed.set(String(s.mid), String(s.feed_id));
      const feed = this.#feeds.get(String(s.feed_id));
      if (feed && s.feed_display) feed.display = s.feed_display;
    }
    if (streams || jsep) {
      const mids = (streams ?? []).map((st) => `${st.mid}=${st.feed_id ?? '-'}`).join(' ');
      console.info(`media: subscriber ${String(msg.videoroom)} [${mids}]${jsep ? ` ${jsep.type}` : ''}`);
    }
    const subscriber = this.#handle;
    if (!jsep || !subscriber) return;
    this.#o.answered();
    // The new feeds' tracks arrive while janus.js takes Janus's offer (ontrack): they are told only once
    // our answer is on its way, so that what the app renders for them (the call screen) runs while DTLS
    // comes up, not between the offer and the answer (≈ 50–100 ms at each side: --timeline of
    // bench/call-setup.ts)
    this.#heldFeeds ??= [];
    const release = () => {
      const held = this.#heldFeeds ?? [];
      this.#heldFeeds = null;
      for (const tell of held) tell();
    };
    const finished = () => {
      this.#afterAnswer?.();
      this.#afterAnswer = null;
    };
    const { connection, tell } = this.#o;
    connection
      .retried(
        () =>
          new Promise<Jsep>((resolve, reject) =>
            subscriber.createAnswer({
              jsep,
              // audio and video are accepted as recvonly; a data track keeps the negotiation shape of the demos
              tracks: [{ type: 'data', capture: false }],
              success: resolve,
              error: reject,
            }),
          ),
        true,
      )
      .then(
        (answer) => {
          tell('stage', { stage: 'createAnswer', ok: true });
          console.info('media: subscriber answer sent');
          this.#adoptReusedTracks();
          subscriber.send({ message: { request: 'start', room: this.#o.room()?.room }, jsep: answer, success: finished, error: finished });
          release();
        },
        (error: unknown) => {
          release();
          tell('stage', { stage: 'createAnswer', ok: false, error: String(error) });
          finished();
        },
      );
  }

  /** A departed feed's m-lines given to a new feed in one negotiation: its tracks fire no event (reusedTracks.ts). */
  #adoptReusedTracks(): void {
    const pc = this.#handle?.webrtcStuff?.pc;
    if (!pc) return;
    const feedHas = (mid: string, track: MediaStreamTrack) => {
      const feed = this.#feeds.get(this.#midToFeed.get(mid) ?? '');
      return feed ? !!feed.stream?.getTracks().includes(track) : null;
    };
    for (const { mid, track } of reusedTracks(pc.getTransceivers(), feedHas)) this.#onRemoteTrack(track, mid, true, 'reused');
  }

  #onRemoteTrack(track: MediaStreamTrack, mid: string, on: boolean, reason?: string): void {
    if (this.#heldFeeds) {
      this.#heldFeeds.push(() => this.#onRemoteTrack(track, mid, on, reason));
      return;
    }
    const { tell } = this.#o;
    const feedId = this.#midToFeed.get(String(mid));
    console.info(`media: remote ${track.kind} mid ${mid} ${on ? 'on' : 'off'}${reason ? ` (${reason})` : ''} feed ${feedId ?? '-'}`);
    if (!feedId) return;
    const feed = this.#feeds.get(feedId);
    if (!feed) return;
    if (!on) {
      // 'mute' is a pause in the stream (e.g. the other side's camera off), not a removal
      if (reason === 'mute' || !feed.stream) return;
      for (const t of feed.stream.getTracks()) if (t.kind === track.kind) feed.stream.removeTrack(t);
      if (feed.stream.getTracks().length === 0) {
        feed.stream = null;
        tell('remoteFeedRemoved', { feedId, display: feed.display });
      }
      return;
    }
    if (track.readyState === 'ended') return;
    const stream = feed.stream ?? new MediaStream();
    for (const t of stream.getTracks()) if (t.kind === track.kind && t.id !== track.id) stream.removeTrack(t);
    if (!stream.getTracks().includes(track)) stream.addTrack(track);
    const isNew = feed.stream === null;
    feed.stream = stream;
    if (isNew) tell('stage', { stage: 'remoteStream', ok: true });
    tell('remoteFeed', { feedId, display: feed.display, stream });
  }

  /** A publisher left or stopped publishing: its feed is gone. */
  feedGone(feedId: string): void {
    const feed = this.#feeds.get(feedId);
    if (!feed) return;
    console.info(`media: publisher ${feedId} left`);
    this.#feeds.delete(feedId);
    for (const [mid, id] of this.#midToFeed) if (id === feedId) this.#midToFeed.delete(mid);
    if (feed.stream) this.#o.tell('remoteFeedRemoved', { feedId, display: feed.display });
    this.#o.tell('publisherLeft', { feedId, display: feed.display });
  }

  /**
   * The others' video to us on or off (audioFirst.ts: our line at `audioOnly`): Janus stops forwarding
   * each video stream of the subscription (`configure` with `send`), their audio goes on.
   */
  async receiveVideo(on: boolean): Promise<void> {
    const handle = this.#handle;
    const pc = handle?.webrtcStuff?.pc;
    if (!handle || !pc) return;
    const mids = pc
      .getTransceivers()
      .filter((t) => t.receiver.track.kind === 'video' && t.mid !== null && this.#midToFeed.has(t.mid))
      .map((t) => t.mid!);
    if (!mids.length) return;
    await this.#o.connection.request(handle, { request: 'configure', streams: mids.map((mid) => ({ mid, send: on })) });
  }

  /** Remote feeds currently received. */
  get remoteFeeds(): RemoteFeed[] {
    return [...this.#feeds.entries()]
      .filter((entry): entry is [string, { display: string; stream: MediaStream }] => entry[1].stream !== null)
      .map(([feedId, feed]) => ({ feedId, display: feed.display, stream: feed.stream }));
  }
}
