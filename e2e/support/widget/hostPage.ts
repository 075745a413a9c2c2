/**
 * A company's website on a second loopback origin (another port of 127.0.0.1 is another origin), served
 * by the test itself: pages with the one-line widget snippet (`/host.html`, and `/other.html` for a
 * visitor who follows a link), plus a recorder of the widget's events that the site's next page still
 * reads (`window.__lobbyEvents` holds the events of every page of the visit, each with its page).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BASE_URL } from '../api.ts';

export interface HostSite {
  origin: string;
  url: string;
  close(): Promise<void>;
}

const EVENTS = ['load', 'ready', 'open', 'close', 'callStarted', 'callAnswered', 'callEnded', 'error'];

export interface HostSiteOptions {
  /** the website's own Content-Security-Policy header (e.g. `frame-src 'none'`: it refuses to frame anything) */
  csp?: string;
  /** more attributes of the snippet's script tag, as written in the page (e.g. `data-name="Dana"`) */
  scriptAttributes?: string;
  /** how many times the page includes the snippet (a template and a tag manager both adding it) */
  snippets?: number;
}

export function hostPageHtml(lobbyBaseUrl: string = BASE_URL, scriptAttributes = '', snippets = 1): string {
  const snippet = `<script src="${lobbyBaseUrl}/widget.js"${scriptAttributes ? ` ${scriptAttributes}` : ''} async></script>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Acme Travel</title></head>
<body>
<h1>Acme Travel</h1>
<p>The company's own website. <a href="/other.html">Our offers</a> <a href="/host.html">Home</a> <a href="/pay.html" id="pay">Pay at our bank</a></p>
<script>
  // kept in the site's sessionStorage: an event sent while the visitor leaves a page is read on the next
  window.__lobbyEvents = JSON.parse(sessionStorage.getItem('lobbyEvents') || '[]');
  ${JSON.stringify(EVENTS)}.forEach(function (name) {
    window.addEventListener('lobby:' + name, function (e) {
      window.__lobbyEvents.push({ type: name, detail: e.detail, page: location.pathname });
      sessionStorage.setItem('lobbyEvents', JSON.stringify(window.__lobbyEvents));
    });
  });
</script>
<script>
  // the bank's page has no snippet: the website keeps the call open in its own window first (docs/widget.md)
  document.getElementById('pay').addEventListener('click', function (e) {
    if (!window.Lobby) return;
    e.preventDefault();
    var href = this.href;
    window.Lobby.keepCallOpen().then(function () { location.href = href; });
  });
</script>
${Array.from({ length: snippets }, () => snippet).join('\n')}
</body>
</html>`;
}

export async function startHostSite(host = '127.0.0.1', options: HostSiteOptions = {}): Promise<HostSite> {
  const html = hostPageHtml(BASE_URL, options.scriptAttributes, options.snippets);
  const server = http.createServer((req, res) => {
    if (req.url === '/host.html' || req.url === '/other.html') {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        ...(options.csp ? { 'content-security-policy': options.csp } : {}),
      });
      res.end(html);
      return;
    }
    if (req.url === '/pay.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bank</title></head><body><h1>Your bank</h1></body></html>');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  return {
    origin,
    url: `${origin}/host.html`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The widget events the host page has seen so far, in order. */
export interface RecordedEvent {
  type: string;
  detail: Record<string, unknown> | null;
  /** the site's page that received it (`/host.html`, `/other.html`) */
  page?: string;
}
