// `/` with the guest's first screen in the page (web/firstScreen.ts, docs/architecture.md "The guest
// page"), rendered by the guest app's real server build: built here from its source into a temp folder.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { addAssignment, addCompany } from '../helpers/fixtures.ts';
import { jsonInScript, themeStyle } from '../../src/web/firstScreenPage.ts';
import { loadFirstScreenRenderer } from '../../src/web/firstScreen.ts';

const repo = path.resolve(import.meta.dirname, '../../../..');
const guestApp = path.join(repo, 'apps/guest');

/** The guest page as `vite build` writes it (the parts the server edits). */
const INDEX = `<!doctype html>
<html lang="en" dir="ltr">
  <head>
    <meta charset="UTF-8" />
    <title>Lobby</title>
    <!-- the company's details decide the first screen: fetched while the scripts load (api/company.ts) -->
    <link rel="preload" href="/api/company/details" as="fetch" crossorigin="anonymous" />
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;
const MANIFEST = {
  'index.html': { file: 'assets/index-abc.js', css: ['assets/index-abc.css'] },
  'src/features/selection/SelectionScreen.tsx': { file: 'assets/SelectionScreen-x.js', css: ['assets/SelectionScreen-x.css'], imports: ['index.html', '_video-y.js'] },
  '_video-y.js': { file: 'assets/video-y.js' },
  'src/i18n/ar.json': { file: 'assets/ar-z.js' },
  'src/features/preview/PreviewScreen.tsx': { file: 'assets/PreviewScreen-p.js', css: ['assets/PreviewScreen-p.css'], imports: ['index.html'] },
};

function guestDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-first-screen-dist-'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.mkdirSync(path.join(dir, '.vite'));
  fs.writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
  return dir;
}

/** The JSON block's text, parsed as the browser does (a JSON block is data, never run). */
function pageData(body: string): { company: Record<string, unknown>; language: string } {
  const match = /<script type="application\/json" id="lobby-first-screen">([^<]*)<\/script>/.exec(body);
  if (!match?.[1]) throw new Error('no first-screen data in the page');
  return JSON.parse(match[1]) as { company: Record<string, unknown>; language: string };
}

describe('the guest page with its first screen', () => {
  let t: TestContext;
  let entry: string;
  const hostile = 'Acme</script><img src=x onerror=alert(1)>';

  beforeAll(async () => {
    // the guest app's server build, from its source, as `npm run build` makes it
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-first-screen-ssr-'));
    execFileSync(process.execPath, [path.join(repo, 'node_modules/vite/bin/vite.js'), 'build', '--ssr', 'src/entry-server.tsx', '--outDir', out, '--logLevel', 'error'], {
      cwd: guestApp,
      stdio: 'pipe',
    });
    entry = path.join(out, 'entry-server.js');
    t = await createTestContext('sqlite', { config: { guestDist: guestDist(), guestServerEntry: entry } });
    const open = await addCompany(t.db, { name: 'Open Bank', host: 'open.test' });
    await addAssignment(t.db, open, 'Savings');
    await addAssignment(t.db, open, 'Loans');
    await addCompany(t.db, { name: hostile, host: 'hostile.test', settings: { welcomeMsg: '<b>hi</b>' } });
    await addCompany(t.db, { name: 'Arabic Co', host: 'arabic.test', settings: { language: 'arabic' } });
    await addCompany(t.db, { name: 'Night Co', host: 'closed.test', settings: { schedule: { timezone: 'UTC', weekly: [{ day: 0, from: '00:00', to: '00:01' }] } } });
    await addCompany(t.db, { name: 'Zone Co', host: 'zone.test', settings: { requestLocation: true } });
    await addCompany(t.db, { name: 'Preview Co', host: 'preview.test', settings: { previewScreen: true } });
  }, 120_000);
  afterAll(async () => {
    // (undefined when the set-up failed: its own error is the one to read)
    await (t as TestContext | undefined)?.close();
  });

  const get = (host: string, url = '/', acceptLanguage = 'en-US,en;q=0.9') =>
    t.app.inject({ method: 'GET', url, headers: { host, accept: 'text/html', 'accept-language': acceptLanguage } });

  it('when an open company is asked for /, then the page holds its name, topics and call button, and its details as JSON', async () => {
    for (const url of ['/', '/?from=newsletter']) {
      const res = await get('open.test', url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.body).toContain('<html lang="en" dir="ltr" style="--lobby-bg:');
      expect(res.body).toContain('<title>Call Open Bank</title>');
      expect(res.body).toMatch(/<div id="root"><div class="[^"]+" data-layout="card">/);
      expect(res.body).toContain('>Open Bank</h1>');
      expect(res.body).toContain('>Savings<');
      expect(res.body).toContain('>Loans<');
      expect(res.body).toContain('data-testid="call-button"');
      const data = pageData(res.body);
      expect(data.language).toBe('en');
      expect(data.company).toMatchObject({ name: 'Open Bank', activated: true, allowAutomation: false });
      expect(data.company.assignments).toHaveLength(2);
      // exactly what the API answers
      const api = await t.app.inject({ method: 'GET', url: '/api/company/details', headers: { host: 'open.test' } });
      expect(data.company).toEqual(api.json<{ data: unknown }>().data);
      // the screen's chunk and style in the head; the details' preload gone (the page carries them)
      expect(res.body).toContain('<link rel="stylesheet" crossorigin href="/assets/SelectionScreen-x.css">');
      expect(res.body).toContain('<link rel="modulepreload" crossorigin href="/assets/SelectionScreen-x.js">');
      expect(res.body).toContain('<link rel="modulepreload" crossorigin href="/assets/video-y.js">');
      expect(res.body).not.toContain('/api/company/details');
      expect(res.body.match(/index-abc\.css/g)).toHaveLength(1);
    }
  });

  it('when the name and messages hold markup, then the page shows it as text and the JSON block cannot be closed', async () => {
    const res = await get('hostile.test');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<img src=x');
    expect(res.body).not.toContain('<b>hi</b>');
    expect(res.body).toContain('&lt;b&gt;hi&lt;/b&gt;');
    // one </script> only: the JSON block's own end
    const block = res.body.slice(res.body.indexOf('id="lobby-first-screen">'));
    expect(block.indexOf('</script>')).toBe(block.lastIndexOf('</script>'));
    expect(block).toContain('Acme\\u003c/script>\\u003cimg src=x onerror=alert(1)>');
    expect(pageData(res.body).company.name).toBe(hostile);
    expect(res.body).toContain('<title>Call Acme&#60;/script&#62;&#60;img src=x onerror=alert(1)&#62;</title>');
  });

  it('when the company speaks Arabic, or the browser does, then the page is Arabic and right to left', async () => {
    const arabic = await get('arabic.test');
    expect(arabic.body).toContain('<html lang="ar" dir="rtl"');
    expect(pageData(arabic.body).language).toBe('ar');
    expect(arabic.body).toContain('<link rel="modulepreload" crossorigin href="/assets/ar-z.js">');
    const browser = await get('open.test', '/', 'ar-EG,ar;q=0.9,en;q=0.5');
    expect(browser.body).toContain('<html lang="ar" dir="rtl"');
    expect(browser.headers.vary).toContain('accept-language');
  });

  it('when the company shows its preview screen first, then the page holds that screen and its style', async () => {
    const res = await get('preview.test');
    expect(res.body).toContain('data-screen="preview"');
    expect(res.body).toContain('data-testid="continue-button"');
    expect(res.body).toContain('<link rel="stylesheet" crossorigin href="/assets/PreviewScreen-p.css">');
    expect(res.body).not.toContain('SelectionScreen-x');
  });

  it('when the gate needs more than the company (closed now, a location check), or the page is the widget\'s, then today\'s page is served', async () => {
    for (const [host, url] of [
      ['closed.test', '/'],
      ['zone.test', '/'],
      ['open.test', '/?service=widget&origin=https%3A%2F%2Fshop.test'],
      // the app shows its not-found screen there
      ['open.test', '/index.html'],
    ] as const) {
      const res = await get(host, url);
      expect(res.statusCode, host).toBe(200);
      expect(res.body, host).toBe(INDEX);
      expect(res.headers['cache-control'], host).toBe('no-cache');
    }
  });
});

describe('the guest page without the guest app\'s server build', () => {
  it('when the server build is missing, then the log says so and / is the page as built', async () => {
    const warn = vi.fn();
    const renderer = await loadFirstScreenRenderer(path.join(os.tmpdir(), 'lobby-no-such-build', 'entry-server.js'), { warn } as never);
    expect(renderer).toBeNull();
    expect(warn.mock.calls[0]?.[1]).toMatch(/server build is missing \(run `npm run build`\)/);
    const t = await createTestContext('sqlite', { config: { guestDist: guestDist() } });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(INDEX);
    } finally {
      await t.close();
    }
  });
});

describe('the page\'s escaping', () => {
  it('when JSON goes in a script block, then no < is left (so no </script> nor <!--), and it parses the same', () => {
    const value = { name: '</script><!--<script>', line: 'a\u2028b' };
    const text = jsonInScript(value);
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toEqual(value);
  });

  it('when a theme value could end its declaration, then it is left out', () => {
    expect(themeStyle({ '--lobby-bg': '#fff', '--lobby-text': 'red;background:url(x)', '--lobby-font': 'a}b' })).toBe('--lobby-bg:#fff');
  });
});
