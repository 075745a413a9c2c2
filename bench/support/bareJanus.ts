/**
 * What the Janus benches share (call-setup.ts, janus-calls.ts): the bare janus.js page served from the
 * installed packages, rooms made the way the Lobby server makes them (a browser may not), and Chromium
 * launched as the e2e tests launch it, with the loopback ICE shim.
 * Env: LOBBY_BASE_URL (default http://127.0.0.1:8080), JANUS_TOKEN_SECRET and JANUS_ROOM_ADMIN_KEY (from
 * .run/secrets.env), JANUS_HTTP_URL (default http://127.0.0.1:8088/janus).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { createJanusVideoroomAdmin } from '../../apps/server/src/services/media/janusAdmin.ts';
import { createJanusTokens } from '../../apps/server/src/services/media/janusTokens.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/support/browser.ts';
import { LOOPBACK_ICE_INIT_SCRIPT } from '../../e2e/support/loopbackIce.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
export const BASE = process.env.LOBBY_BASE_URL ?? 'http://127.0.0.1:8080';

const tokenSecret = process.env.JANUS_TOKEN_SECRET;
const adminKey = process.env.JANUS_ROOM_ADMIN_KEY;
if (!tokenSecret || !adminKey) throw new Error('JANUS_TOKEN_SECRET and JANUS_ROOM_ADMIN_KEY are not set (source .run/secrets.env)');
const janusTokens = createJanusTokens(tokenSecret);
const janusAdmin = createJanusVideoroomAdmin(process.env.JANUS_HTTP_URL ?? 'http://127.0.0.1:8088/janus', adminKey, janusTokens);

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
};

/** Serves bench/pages/bare-janus.html at /bare.html with janus.js and adapter.js from node_modules. */
export function serveBare(): Promise<{ url: string; close: () => void }> {
  const files: Record<string, [string, string]> = {
    '/bare.html': [path.join(root, 'bench/pages/bare-janus.html'), 'text/html'],
    '/janus.es.js': [path.join(root, 'node_modules/janus-gateway/npm/dist/janus.es.js'), 'text/javascript'],
    '/adapter.js': [path.join(root, 'node_modules/webrtc-adapter/out/adapter.js'), 'text/javascript'],
  };
  const server = http.createServer((req, res) => {
    const file = files[(req.url ?? '').split('?')[0] ?? ''];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file[1] }).end(fs.readFileSync(file[0]));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
    }),
  );
}

/**
 * A VideoRoom made as the Lobby server makes a call's room, and the bare page's query for it (the public
 * /janus websocket through the gate, with a token for the room). `destroy()` removes it.
 */
export async function bareRoom(name: string): Promise<{ query: string; destroy: () => Promise<void> }> {
  const room = `${name}${Date.now().toString(36)}`;
  const pin = Math.random().toString(16).slice(2);
  const secret = `s${Math.random().toString(16).slice(2)}`;
  await janusAdmin.create({ room, pin, secret, recDir: os.tmpdir(), webview: false });
  const token = janusTokens.mint(room, 600, { role: 'guest', username: 'bench' }).token;
  const janus = `${BASE.replace(/^http/, 'ws')}/janus`;
  return {
    query: `server=${encodeURIComponent(janus)}&room=${room}&pin=${pin}&token=${encodeURIComponent(token)}`,
    destroy: () => janusAdmin.destroy(room, secret).then(() => undefined, () => undefined),
  };
}

/**
 * A camera that is hard to encode, for Chromium's --use-file-for-fake-video-capture: a second of fresh
 * noise per frame (640×480, 30 fps, Y4M). The default fake camera (a still pattern with a counter) needs
 * so few bits that the encoder sends ≈ 200 kbit/s whatever the estimate; noise makes it send what the
 * estimate allows (Chromium caps 640×480 at ≈ 1.7 Mbit/s), as a camera's image of a person does at
 * ≈ 1–2 Mbit/s. Written once into the temporary directory.
 */
export function noiseCamera(): string {
  const file = path.join(os.tmpdir(), 'lobby-bench-noise-640x480.y4m');
  if (fs.existsSync(file)) return file;
  const [w, h, frames] = [640, 480, 30];
  const out = fs.openSync(`${file}.tmp`, 'w');
  fs.writeSync(out, `YUV4MPEG2 W${w} H${h} F30:1 Ip A1:1 C420jpeg\n`);
  for (let f = 0; f < frames; f++) {
    fs.writeSync(out, 'FRAME\n');
    fs.writeSync(out, crypto.randomBytes((w * h * 3) / 2));
  }
  fs.closeSync(out);
  fs.renameSync(`${file}.tmp`, file);
  return file;
}

/** Chromium as the e2e tests run it (fake camera and microphone, loopback ICE), in a profile of its own. */
export async function launchBenchBrowser(extraArgs: string[] = []): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-bench-'));
  fs.mkdirSync(path.join(dir, 'Default'));
  fs.writeFileSync(
    path.join(dir, 'Default', 'Preferences'),
    JSON.stringify({ webrtc: { ip_handling_policy: 'default_public_and_private_interfaces' } }),
  );
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    // A stack started with the README's command shows automated browsers the bot screen
    // (navigator.webdriver); the bench's guest is a person for this measure, so the flag is off here.
    args: [...CHROMIUM_ARGS, '--disable-blink-features=AutomationControlled', ...extraArgs],
  });
  await context.addInitScript(LOOPBACK_ICE_INIT_SCRIPT);
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
