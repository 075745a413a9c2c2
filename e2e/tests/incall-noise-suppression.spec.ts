/**
 * Noise suppression (docs/architecture.md "Noise suppression"): the agent's microphone is speech over
 * steady pink noise (e2e/support/fakeMicrophone.ts). With the switch on (the agent's default) the guest
 * hears the noise-only parts far quieter than with it off, in the same call: RNNoise in its worklet, under
 * the server's CSP, is what the guest receives. The switch is reached by keyboard in the call settings and
 * remembered; at the call's end the agent's audio contexts are closed. It prints the agent's browser CPU
 * per second with suppression on and off (docs/performance.md "Noise suppression").
 */
import { expect, test, type Page } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { noisyMicrophoneFile } from '../support/fakeMicrophone.ts';
import { closeAll, screenshot } from '../support/journey.ts';
import { browserCpuSeconds } from '../support/processCpu.ts';
import { percentile, receivedAudioLevels } from '../support/receivedAudio.ts';
import { guestCallsAndAgentAnswers } from './incall-support.ts';

/** the agent's browser profile folder's prefix: its processes' CPU is read by it */
const AGENT_TAG = 'agent-noise';
/** each measure spans more than one loop of the microphone's file (3 s of noise, 3 s of speech) */
const MEASURE_MS = 8_000;

/** Counts the audio contexts a page makes at 48 kHz (noise suppression's), to see them closed. */
const COUNT_AUDIO_CONTEXTS = `(() => {
  const Native = window.AudioContext;
  if (!Native) return;
  const made = (window.__lobbyAudioContexts = []);
  window.AudioContext = class extends Native {
    constructor(options) {
      super(options);
      if (options && options.sampleRate === 48000) made.push(this);
    }
  };
})();`;

const contextStates = (page: Page) =>
  page.evaluate(() => ((window as unknown as { __lobbyAudioContexts?: AudioContext[] }).__lobbyAudioContexts ?? []).map((c) => c.state));

/** What the guest hears over MEASURE_MS and what the agent's browser spent meanwhile. */
async function measure(guest: Page) {
  const cpuBefore = browserCpuSeconds(`lobby-${AGENT_TAG}-`);
  const started = Date.now();
  const levels = await receivedAudioLevels(guest, MEASURE_MS);
  const cpuPerSecond = (browserCpuSeconds(`lobby-${AGENT_TAG}-`) - cpuBefore) / ((Date.now() - started) / 1000);
  // half of each loop is noise alone: the quietest fifth of the intervals is noise
  return { noise: percentile(levels, 20), speech: percentile(levels, 90), cpuPerSecond, intervals: levels.length };
}

const dB = (value: number) => `${value.toFixed(1)} dBFS`;

test('when the agent speaks over steady noise, then the guest hears the noise at least 10 dB quieter with suppression on (the default) than off, in the same call', async ({}, testInfo) => {
  test.slow(); // three measures of 8 s in one voice call on a shared machine
  const agent = await launchParticipant(AGENT_TAG, { extraArgs: [`--use-file-for-fake-audio-capture=${noisyMicrophoneFile()}`] });
  await agent.context.addInitScript(COUNT_AUDIO_CONTEXTS);
  const guest = await launchParticipant('guest', { viewport: { width: 1024, height: 768 } });
  try {
    await guestCallsAndAgentAnswers(agent, guest, 'voice');
    // the agent's default: on, its copy made when the call was answered (one audio context)
    await expect.poll(() => contextStates(agent.page)).toEqual(['running']);
    await expect.poll(async () => (await receivedAudioLevels(guest.page, 500)).length, { message: 'the guest receives audio' }).toBeGreaterThan(2);
    // the copy takes the microphone's place once it runs (not at publish): as after each switch below
    await agent.page.waitForTimeout(1_000);
    const on = await measure(guest.page);

    // act: the agent turns it off in the call settings, by keyboard
    await agent.page.getByTestId('agent-settings-button').click();
    const toggle = agent.page.getByRole('switch', { name: 'Noise suppression' });
    await expect(toggle).toBeChecked();
    await toggle.focus();
    await agent.page.keyboard.press('Space');
    await expect(toggle).not.toBeChecked();
    // the copy is let go: its context closed
    await expect.poll(() => contextStates(agent.page)).toEqual(['closed']);
    await agent.page.waitForTimeout(1_000);
    const off = await measure(guest.page);
    await screenshot(agent.page, testInfo, 'incall-noise-suppression-agent-settings');

    // act: on again, during the same call
    await agent.page.keyboard.press('Space');
    await expect(toggle).toBeChecked();
    await expect.poll(() => contextStates(agent.page)).toEqual(['closed', 'running']);
    await agent.page.waitForTimeout(1_000);
    const again = await measure(guest.page);

    const report = [
      `noise-only level at the guest: on ${dB(on.noise)}, off ${dB(off.noise)}, on again ${dB(again.noise)}`,
      `speech level at the guest (90th percentile): on ${dB(on.speech)}, off ${dB(off.speech)}, on again ${dB(again.speech)}`,
      `agent's browser CPU: on ${on.cpuPerSecond.toFixed(3)} s/s, off ${off.cpuPerSecond.toFixed(3)} s/s, on again ${again.cpuPerSecond.toFixed(3)} s/s`,
      `intervals measured: ${on.intervals}, ${off.intervals}, ${again.intervals}`,
    ].join('\n');
    console.log(`noise suppression journey:\n${report}`);
    testInfo.annotations.push({ type: 'noise suppression', description: report });

    // assert: the noise is clearly quieter with suppression, both times; the voice still comes through
    expect(off.noise - on.noise, report).toBeGreaterThanOrEqual(10);
    expect(off.noise - again.noise, report).toBeGreaterThanOrEqual(10);
    expect(on.speech - on.noise, report).toBeGreaterThanOrEqual(10);
    expect(again.speech - again.noise, report).toBeGreaterThanOrEqual(10);
    expect(again.speech - off.speech, report).toBeGreaterThanOrEqual(-6);
    // it ran: nothing fell back to the raw microphone
    expect(agent.log.filter((line) => /noise suppression/.test(line))).toEqual([]);
    expect(await agent.page.evaluate(() => localStorage.getItem('lobby.console.noiseSuppression'))).toBe('on');

    // act: the agent ends the call
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('active-call')).toHaveCount(0);

    // assert: no audio context outlives the call
    await expect.poll(() => contextStates(agent.page)).toEqual(['closed', 'closed']);
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
