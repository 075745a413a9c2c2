/**
 * nginx as scripts/lib/stack.sh and scripts/configure generate it (infra/nginx/nginx.conf.tmpl), run on
 * free loopback ports in front of a stand-in for the Lobby server: the plain-HTTP port with and without
 * LOBBY_HTTPS_REDIRECT (docs/operations.md "HTTP and HTTPS"), the TLS 1.2 suites it accepts, and the
 * errors nginx answers itself in the server's JSON shape (apps/server/src/http/errors.ts).
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { startFront, type Front } from './nginxFront.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Answer {
  status: number;
  type: string | undefined;
  location: string | undefined;
  body: string;
}

/** One request written byte for byte (a client that sends what a browser never would); its answer's head and body. */
function raw(port: number, request: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // written, not ended: nginx takes a half-closed client for one that left (499) and drops a proxied request
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    // complete once the body holds Content-Length bytes: after a 413 nginx keeps reading (lingering close)
    const parse = (): Answer | undefined => {
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return undefined;
      const head = text.slice(0, split);
      const body = text.slice(split + 4);
      const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim();
      if (Buffer.byteLength(body) < Number(header('content-length') ?? 0)) return undefined;
      return {
        status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0),
        type: header('content-type'),
        location: header('location'),
        body,
      };
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const answer = parse();
      if (answer) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('error', reject);
    socket.on('close', () =>
      reject(new Error(`connection closed before a whole answer: ${JSON.stringify(text.slice(0, 200))}`)),
    );
  });
}

function get(port: number, target: string): Promise<Answer> {
  return raw(port, `GET ${target} HTTP/1.1\r\nHost: support.example.com\r\nConnection: close\r\n\r\n`);
}

/**
 * A TLS 1.2 handshake by OpenSSL's own client offering only the given suite (Node's OpenSSL leaves out
 * ARIA, Camellia and CCM): the suite agreed, or what the client said instead.
 */
function opensslHandshake(port: number, cipher: string): Promise<string> {
  return new Promise((resolve) => {
    const client = execFile(
      'openssl',
      [
        's_client',
        '-connect',
        `127.0.0.1:${port}`,
        '-tls1_2',
        '-cipher',
        `${cipher}:@SECLEVEL=0`,
        '-servername',
        'localhost',
      ],
      { timeout: 10_000 },
      (_error, stdout, stderr) =>
        resolve(
          /Cipher is (\S+)/.exec(stdout)?.[1] ??
            `none: ${stderr.split('\n').find((l) => /error|alert/.test(l)) ?? stderr}`,
        ),
    );
    client.stdin?.end();
  });
}

/** A TLS 1.2 handshake offering only the given suites: the suite agreed, or the error nginx ended it with. */
function handshake(port: number, ca: string, ciphers: string): Promise<{ cipher?: string; error?: string }> {
  return new Promise((resolve) => {
    const socket = tls.connect(
      {
        port,
        host: '127.0.0.1',
        servername: 'localhost',
        ca,
        ciphers,
        maxVersion: 'TLSv1.2',
        minVersion: 'TLSv1.2',
      },
      () => {
        resolve({ cipher: socket.getCipher().standardName });
        socket.destroy();
      },
    );
    socket.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
  });
}

let upstream: http.Server;
let apiPort: number;
beforeAll(async () => {
  // the Lobby server's stand-in: says which path reached it
  upstream = http.createServer((req, res) => res.end(`upstream ${req.url}`));
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  apiPort = (upstream.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => upstream.close(() => r())));

/** An error nginx answered itself, in the server's shape (apps/server/src/http/errors.ts). */
function expectServerError(
  answer: Answer,
  statusCode: number,
  error: string,
  message: string | RegExp,
): void {
  expect(answer.status, answer.body).toBe(statusCode);
  expect(answer.type).toBe('application/json');
  const body = JSON.parse(answer.body) as { statusCode: number; error: string; message: string };
  expect([body.statusCode, body.error]).toEqual([statusCode, error]);
  if (typeof message === 'string') expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
}

/** The nginx of one describe block: started before its tests, stopped after them. */
function frontOf(redirect: '0' | '1'): () => Front {
  let front: Front | undefined;
  beforeAll(async () => {
    front = await startFront(redirect, apiPort);
  }, 60_000);
  afterAll(() => front?.stop());
  return () => {
    if (!front) throw new Error('nginx did not start');
    return front;
  };
}

describe('nginx in production (LOBBY_HTTPS_REDIRECT=1)', () => {
  const front = frontOf('1');

  it('when a guest opens the plain-HTTP address, then nginx redirects to the same page over HTTPS', async () => {
    const answer = await get(front().http, '/?appointment=42');
    expect(answer.status).toBe(301);
    expect(answer.location).toBe(`https://support.example.com:${front().https}/?appointment=42`);
    // an API call over plain HTTP too
    expect((await get(front().http, '/api/health')).status).toBe(301);
  }, 30_000);

  it("when Let's Encrypt asks for its challenge over HTTP, then nginx serves the file and redirects nothing", async () => {
    writeFileSync(path.join(front().acmeDir, '.well-known/acme-challenge/token-1'), 'token-1.key');
    const answer = await get(front().http, '/.well-known/acme-challenge/token-1');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('token-1.key');
    // a path that leaves the challenge folder is redirected like any other
    expect((await get(front().http, '/.well-known/acme-challenge/../../api/health')).status).toBe(301);
  }, 30_000);

  it('when a TLS 1.2 client offers only CBC, CCM8, ARIA or Camellia suites, then nginx refuses it; ECDHE with GCM or ChaCha20 is accepted', async () => {
    for (const cbc of ['ECDHE-ECDSA-AES128-SHA', 'ECDHE-ECDSA-AES256-SHA384']) {
      const result = await handshake(front().https, front().ca, cbc);
      expect(result.cipher, cbc).toBeUndefined();
      expect(result.error, cbc).toMatch(/^ERR_SSL_.*ALERT_HANDSHAKE_FAILURE$/);
    }
    for (const weak of [
      'ECDHE-ECDSA-AES128-CCM8',
      'ECDHE-ECDSA-AES256-CCM',
      'ECDHE-ECDSA-ARIA128-GCM-SHA256',
      'ECDHE-ECDSA-CAMELLIA128-SHA256',
    ]) {
      // "(NONE)": the handshake ran and ended without a suite (an unknown name would fail before connecting)
      expect(await opensslHandshake(front().https, weak), weak).toBe('(NONE)');
    }
    expect(await opensslHandshake(front().https, 'ECDHE-ECDSA-AES256-GCM-SHA384')).toBe(
      'ECDHE-ECDSA-AES256-GCM-SHA384',
    );
    expect(await handshake(front().https, front().ca, 'ECDHE-ECDSA-AES128-GCM-SHA256')).toEqual({
      cipher: 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
    });
    expect(await handshake(front().https, front().ca, 'ECDHE-ECDSA-CHACHA20-POLY1305')).toEqual({
      cipher: 'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
    });
  }, 30_000);
});

describe('nginx of a development or test stack (LOBBY_HTTPS_REDIRECT=0)', () => {
  const front = frontOf('0');

  it('when a page is opened over plain HTTP, then nginx serves it without a redirect', async () => {
    const answer = await get(front().http, '/api/health');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('upstream /api/health');
  }, 30_000);

  it('when a client sends an over-long URL to /api, then nginx answers 414 in the server’s JSON error shape', async () => {
    const answer = await get(front().http, `/api/guest/register?x=${'a'.repeat(10_000)}`);
    expectServerError(answer, 414, 'URI Too Long', 'url: longer than 8 KB');
  }, 30_000);

  it('when a client sends a malformed request to /api, then nginx answers 400 in the server’s JSON error shape', async () => {
    for (const request of [
      'GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n', // HTTP/1.1 without Host
      'GET /api/health HTTP/1.1\r\nHost: a\r\nbroken header line\r\nConnection: close\r\n\r\n',
      `GET /api/health HTTP/1.1\r\nHost: a\r\nCookie: ${'c'.repeat(10_000)}\r\nConnection: close\r\n\r\n`, // a header over the buffers
    ]) {
      expectServerError(await raw(front().http, request), 400, 'Bad Request', /^request: /);
    }
  }, 30_000);

  it('when a client announces a body over the upload limit, then nginx answers 413 in the server’s JSON error shape', async () => {
    const answer = await raw(
      front().http,
      `POST /api/upload HTTP/1.1\r\nHost: a\r\nContent-Length: ${65 * 1024 * 1024}\r\nConnection: close\r\n\r\n`,
    );
    expectServerError(answer, 413, 'Payload Too Large', 'body: larger than 64 MB');
  }, 30_000);
});
