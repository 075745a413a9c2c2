/**
 * Debian's Chromium with fake camera and microphone, set up for a machine where only loopback carries
 * traffic (README.md "Loopback ICE switch"): a fresh profile whose WebRTC IP policy stops adapter
 * enumeration, no DNS, and an init script that keeps only 127.0.0.1 ICE candidates.
 */
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fakeCameraArgs } from './fakeCamera.ts';
import { LOOPBACK_ICE_INIT_SCRIPT } from './loopbackIce.ts';

// Chromium keeps only the last --disable-features switch and Playwright passes its own, so ours is
// Playwright's list (copied from playwright-core 1.65) plus WebRtcHideLocalIpsWithMdns: with mDNS
// hiding on, the network service opens a multicast socket on the first PeerConnection.
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--autoplay-policy=no-user-gesture-required',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, 'WebRtcHideLocalIpsWithMdns'].join(',')}`,
];

export const CHROMIUM_PATH = process.env.LOBBY_CHROMIUM ?? '/usr/bin/chromium';

export interface LaunchedBrowser {
  context: BrowserContext;
  page: Page;
  /** console lines and page errors, attached to failures */
  log: string[];
  close(): Promise<void>;
}

export async function launchParticipant(
  tag: string,
  options: {
    viewport?: { width: number; height: number };
    locale?: string;
    extraArgs?: string[];
    userAgent?: string;
    /** another Chromium executable (the network journeys' wrapper that starts it inside a namespace) */
    executablePath?: string;
    baseURL?: string;
    /** instead of the loopback-only ICE script (on a real network every candidate counts) */
    initScript?: string;
    /** false: a browser that runs no script of the page (what a page shows before its scripts run) */
    javaScriptEnabled?: boolean;
  } = {},
): Promise<LaunchedBrowser> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `lobby-${tag}-`));
  fs.mkdirSync(path.join(dir, 'Default'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'Default', 'Preferences'),
    JSON.stringify({ webrtc: { ip_handling_policy: 'default_public_and_private_interfaces' } }),
  );
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: options.executablePath ?? CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...fakeCameraArgs(options.extraArgs), ...(options.extraArgs ?? [])],
    viewport: options.viewport ?? { width: 1280, height: 800 },
    ...(options.locale ? { locale: options.locale } : {}),
    ...(options.userAgent ? { userAgent: options.userAgent } : {}),
    ...(options.javaScriptEnabled === false ? { javaScriptEnabled: false } : {}),
    baseURL: options.baseURL ?? process.env.LOBBY_BASE_URL ?? 'http://127.0.0.1:8080',
  });
  await context.addInitScript(options.initScript ?? LOOPBACK_ICE_INIT_SCRIPT);
  const log: string[] = [];
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (m) => log.push(`[${tag}] ${m.type()} ${m.text()}`));
  page.on('pageerror', (e) => log.push(`[${tag}] pageerror ${e.message}`));
  // what the app reports as a failed call stage is the best clue when a journey fails
  context.on('request', (request) => {
    if (request.url().includes('/api/call-bug/')) log.push(`[${tag}] call-bug ${request.postData() ?? ''}`);
  });
  return {
    context,
    page,
    log,
    async close() {
      await context.close().catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
