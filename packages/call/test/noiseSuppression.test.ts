/**
 * Noise suppression of the sent microphone (docs/architecture.md "Noise suppression"), on fakes: RNNoise's
 * framing, the fallback to the raw microphone, the suppressed copy being what is sent (Janus and p2p), the
 * switch during a call, and its audio context ended with the microphone, the device and the call.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FRAMER_LATENCY, Framer, RNNOISE_FRAME } from '../src/media/noise/frames.ts';
import { noiseSuppressionMissing, suppressNoise } from '../src/media/noise/suppression.ts';
import { SentMicrophone } from '../src/media/sentMicrophone.ts';
import { PublishedTracks } from '../src/media/janus/publishedTracks.ts';
import type { Handle } from '../src/media/janus/library.ts';
import type { SuppressNoise } from '../src/ports/media.ts';
import { FakeMediaStream, FakeSender, FakeJingleNetwork } from './helpers/fakeJingle.ts';
import { FakeTrack, FakeWorld, settle } from './helpers/fakes.ts';
import { agentOnline, guestWaiting, inCall } from './helpers/participants.ts';

/** A suppressor whose copies are fake tracks; each copy made is kept with the microphone it came from. */
function fakeSuppressor(fails = false) {
  const made: Array<{ microphone: MediaStreamTrack; track: FakeTrack; stopped: boolean }> = [];
  const suppress: SuppressNoise = (microphone) => {
    if (fails) return Promise.resolve(null);
    const copy = { microphone, track: new FakeTrack('audio', 'suppressed'), stopped: false };
    made.push(copy);
    return Promise.resolve({
      track: copy.track as unknown as MediaStreamTrack,
      stop() {
        copy.stopped = true;
        copy.track.stop();
      },
    });
  };
  return { suppress, made, live: () => made.filter((m) => !m.stopped) };
}

const track = (t: FakeTrack) => t as unknown as MediaStreamTrack;

const native = (globalThis as { MediaStream?: unknown }).MediaStream;
beforeAll(() => {
  (globalThis as { MediaStream?: unknown }).MediaStream = FakeMediaStream;
});
afterAll(() => {
  (globalThis as { MediaStream?: unknown }).MediaStream = native;
});
afterEach(() => vi.restoreAllMocks());

describe("RNNoise's framing", () => {
  it('when 128-sample blocks go through a frame that changes nothing, then they come out the same, 512 samples later, without a gap', () => {
    const frames: number[] = [];
    const framer = new Framer((frame) => frames.push(frame.length));
    const input = Array.from({ length: 40 * 128 }, (_, i) => Math.sin(i / 7) * 0.5);
    const output: number[] = [];
    for (let block = 0; block < 40; block++) {
      const out = new Float32Array(128);
      framer.process(Float32Array.from(input.slice(block * 128, block * 128 + 128)), out);
      output.push(...out);
    }
    expect(frames.every((n) => n === RNNOISE_FRAME)).toBe(true);
    expect(frames.length).toBe(Math.floor((40 * 128) / RNNOISE_FRAME));
    expect(output.slice(0, FRAMER_LATENCY).every((v) => v === 0)).toBe(true);
    const delayed = output.slice(FRAMER_LATENCY);
    expect(delayed.every((v, i) => Math.abs(v - input[i]!) < 1e-6)).toBe(true);
  });

  it('when a frame is denoised, then RNNoise gets 16-bit-scale samples and its output is scaled back', () => {
    let peak = 0;
    const framer = new Framer((frame) => {
      peak = Math.max(peak, ...frame);
      frame.fill(16384);
    });
    const out = new Float32Array(128);
    for (let block = 0; block < 8; block++) framer.process(new Float32Array(128).fill(0.25), out);
    expect(peak).toBe(8192);
    expect(out[127]).toBe(0.5);
  });
});

describe('where noise suppression cannot run', () => {
  it('when the browser lacks AudioWorklet or WebAssembly, then it says which', () => {
    const AudioContext = function AudioContext() {};
    expect(noiseSuppressionMissing({})).toBe('no AudioContext');
    expect(noiseSuppressionMissing({ AudioContext })).toBe('no AudioWorklet');
    expect(noiseSuppressionMissing({ AudioContext, AudioWorkletNode: AudioContext })).toBe('no WebAssembly');
    expect(noiseSuppressionMissing({ AudioContext, AudioWorkletNode: AudioContext, WebAssembly: {} })).toBeNull();
  });

  it('when the suppressor is asked where there is no audio context, then it answers null and the console says the raw microphone is sent', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await suppressNoise(track(new FakeTrack('audio')))).toBeNull();
    expect(warn).toHaveBeenCalledWith('noise suppression: no AudioContext: the raw microphone is sent');
  });

  it('when suppression cannot run, then the microphone itself is sent', async () => {
    const microphone = new FakeTrack('audio');
    const sent = new SentMicrophone(fakeSuppressor(true).suppress);
    expect(await sent.sendable(track(microphone), true)).toBe(microphone);
    expect(sent.on).toBe(true);
  });
});

describe('the sent microphone', () => {
  it('when the switch goes off, a new microphone comes or the call ends, then the previous suppressed copy is stopped', async () => {
    const { suppress, made, live } = fakeSuppressor();
    const sent = new SentMicrophone(suppress);
    const first = new FakeTrack('audio', 'mic-1');
    expect(await sent.sendable(track(first), true)).toBe(made[0]!.track);

    expect(await sent.sendable(track(first), false)).toBe(first);
    expect(live()).toEqual([]);

    expect(await sent.sendable(track(first), true)).toBe(made[1]!.track);
    const second = new FakeTrack('audio', 'mic-2');
    // the switch as it was: still on for the new microphone
    expect(await sent.sendable(track(second))).toBe(made[2]!.track);
    expect(made[2]!.microphone).toBe(second);
    expect(live().map((m) => m.track)).toEqual([made[2]!.track]);

    sent.stop();
    expect(live()).toEqual([]);
    expect(made[2]!.track.readyState).toBe('ended');
  });

  it('when a running copy fails (its worklet), then the console says so, the copy stops and its owner sends the microphone again', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let fail: (reason: string) => void = () => undefined;
    const copy = new FakeTrack('audio', 'suppressed');
    let stopped = false;
    const resent: MediaStreamTrack[] = [];
    const sent = new SentMicrophone(
      () => Promise.resolve({ track: track(copy), stop: () => void (stopped = true), failed: new Promise<string>((resolve) => (fail = resolve)) }),
      (microphone) => resent.push(microphone),
    );
    const microphone = new FakeTrack('audio');
    expect(await sent.sendable(track(microphone), true)).toBe(copy);

    fail('the RNNoise worklet failed');
    await settle();

    expect(resent).toEqual([microphone]);
    expect(stopped).toBe(true);
    expect(sent.current).toBe(microphone);
    expect(warn).toHaveBeenCalledWith('noise suppression failed (the RNNoise worklet failed): the raw microphone is sent');
  });

  it('when the call ends while a copy is being made, then that copy is stopped as soon as it is ready', async () => {
    let release: () => void = () => undefined;
    const { suppress, made } = fakeSuppressor();
    const slow: SuppressNoise = async (microphone) => {
      await new Promise<void>((resolve) => (release = resolve));
      return suppress(microphone);
    };
    const sent = new SentMicrophone(slow);
    const pending = sent.sendable(track(new FakeTrack('audio')), true);
    sent.stop();
    release();
    await pending;
    expect(made.map((m) => m.stopped)).toEqual([true]);
  });
});

describe("Janus publisher's microphone", () => {
  function publishing() {
    const noise = fakeSuppressor();
    const audio = new FakeTrack('audio', 'mic-1');
    const video = new FakeTrack('video');
    const senders = [new FakeSender(), new FakeSender()];
    const handle = {
      webrtcStuff: { pc: { getSenders: () => senders, getTransceivers: () => senders.map((sender, i) => ({ sender, mid: String(i) })) } },
      // as janus.js: the replaced track is stopped unless the track that was put on asked not to be (dontStop)
      replaceTracks: (o: { tracks: Array<{ type: string; capture: FakeTrack & { dontStop?: boolean }; dontStop?: boolean }>; success: () => void }) => {
        for (const t of o.tracks) {
          const sender = senders[t.type === 'audio' ? 0 : 1]!;
          const old: (FakeTrack & { dontStop?: boolean }) | null = sender.track;
          if (old && old.dontStop !== true) old.stop();
          if (t.dontStop) t.capture.dontStop = true;
          void sender.replaceTrack(t.capture);
        }
        o.success();
      },
    } as unknown as Handle;
    const tracks = new PublishedTracks({ handle: () => handle, ended: () => false, suppressNoise: noise.suppress });
    tracks.use(new FakeMediaStream([audio, video]) as unknown as MediaStream, null);
    return { tracks, audio, video, senders, noise };
  }

  it('when published with suppression on, then the suppressed copy is sent; turned off during the call, the microphone is; on again, a new copy', async () => {
    const { tracks, audio, senders, noise } = publishing();
    const sent = await tracks.sendableAudio(track(audio), true);
    await senders[0]!.replaceTrack(sent as unknown as FakeTrack);
    expect(sent).toBe(noise.made[0]!.track);
    expect(noise.made[0]!.microphone).toBe(audio);

    await tracks.setNoiseSuppression(false);
    expect(senders[0]!.track).toBe(audio);
    expect(noise.live()).toEqual([]);

    await tracks.setNoiseSuppression(true);
    expect(senders[0]!.track).toBe(noise.made[1]!.track);
    // the new copy is made from the same microphone, still live (janus.js stopped only the copy it replaced)
    expect(noise.made[1]!.microphone).toBe(audio);
    expect(audio.readyState).toBe('live');
    expect(noise.made[0]!.track.readyState).toBe('ended');
    // the published stream stays the microphone's own (the app shows its device)
    expect(tracks.localStream?.getAudioTracks()).toEqual([audio]);
  });

  it('when the microphone changes with suppression on, then a copy of the new one is sent, the old copy and microphone stopped', async () => {
    const { tracks, audio, senders, noise } = publishing();
    await senders[0]!.replaceTrack((await tracks.sendableAudio(track(audio), true)) as unknown as FakeTrack);
    const next = new FakeTrack('audio', 'mic-2');

    await tracks.replaceTracks(new FakeMediaStream([next]) as unknown as MediaStream);

    expect(senders[0]!.track).toBe(noise.made[1]!.track);
    expect(noise.made[1]!.microphone).toBe(next);
    expect(noise.live().map((m) => m.microphone)).toEqual([next]);
    expect(audio.readyState).toBe('ended');
  });

  it('when suppression is switched while the microphone is muted, then nothing is sent until unmute, which sends the switched track', async () => {
    const { tracks, audio, senders, noise } = publishing();
    await senders[0]!.replaceTrack((await tracks.sendableAudio(track(audio), false)) as unknown as FakeTrack);
    await tracks.setMuted('audio', true);

    await tracks.setNoiseSuppression(true);
    expect(senders[0]!.track).toBeNull();

    await tracks.setMuted('audio', false);
    expect(senders[0]!.track).toBe(noise.made[0]!.track);
    expect(audio.enabled).toBe(true);
  });

  it("when the session closes, then the suppressed copy's audio context ends with the microphone", async () => {
    const { tracks, audio, noise } = publishing();
    await tracks.sendableAudio(track(audio), true);
    tracks.stop();
    expect(noise.live()).toEqual([]);
    expect(audio.readyState).toBe('ended');
  });
});

describe('the switch in the engines', () => {
  it('when an agent answers, then it publishes with suppression on by default; the guest publishes with it off', async () => {
    const world = new FakeWorld();
    const { callId } = await inCall(world);
    const [guestMedia, agentMedia] = [world.media.members(callId).find((t) => t.display === 'guest1')!, world.media.members(callId).find((t) => t.display !== 'guest1')!];
    expect(guestMedia.published?.noiseSuppression).toBe(false);
    expect(agentMedia.published?.noiseSuppression).toBe(true);
  });

  it("when the guest turns the switch on during a call, then the call's media is told at once and the next call publishes with it on", async () => {
    const world = new FakeWorld();
    const { guest, callId } = await inCall(world);
    await guest.setNoiseSuppression(true);
    const media = world.media.members(callId).find((t) => t.display === 'guest1')!;
    expect(media.noiseSuppression).toBe(true);

    await guest.hangup();
    await settle();
    await guest.call('video');
    await settle();
    const next = world.media.transports.filter((t) => t.display === 'guest1').at(-1)!;
    expect(next).not.toBe(media);
    expect(next.published?.noiseSuppression).toBe(true);
  });

  /** A p2p call the agent answered, its p2p transports' suppressor `suppress`. */
  async function p2pAnswered(suppress: SuppressNoise) {
    const world = new FakeWorld();
    const network = new FakeJingleNetwork();
    world.xmpp.jingle = network;
    world.suppressNoise = suppress;
    const guest = await guestWaiting(world);
    const agent1 = await agentOnline(world, 'agent1');
    await agent1.agent.answer(guest.guest.snapshot.callId!);
    await settle(40);
    for (let i = 0; i < 200 && network.calls.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    await settle(40);
    const audioSent = () => network.calls[1]!.pc.getTransceivers().filter((t) => t.receiver.track.kind === 'audio').map((t) => t.sender.track);
    return { guest, agent1, audioSent };
  }

  it("when RNNoise is slow to start, then the agent's call does not wait for it: the microphone is sent meanwhile", async () => {
    const { guest, agent1, audioSent } = await p2pAnswered(() => new Promise(() => undefined));
    expect(agent1.agent.snapshot.phase).toBe('inCall');
    expect(guest.guest.snapshot.phase).toBe('ongoing');
    expect(audioSent()).toEqual([agent1.agent.snapshot.localStream!.getAudioTracks()[0]]);
  });

  it("when an agent answers a p2p call, then the guest receives the agent's suppressed copy; the call's end stops it", async () => {
    const noise = fakeSuppressor();
    const { agent1, audioSent } = await p2pAnswered(noise.suppress);

    const agentMicrophone = agent1.agent.snapshot.localStream!.getAudioTracks()[0];
    expect(noise.made.map((m) => m.microphone)).toEqual([agentMicrophone]);
    expect(audioSent()).toEqual([noise.made[0]!.track]);

    await agent1.agent.hangup();
    await settle(40);
    expect(noise.live()).toEqual([]);
  });
});
