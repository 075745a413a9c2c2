/**
 * A stand-in for a server behind nginx (a Lobby server instance, a Janus gate) in the nginx tests: answers
 * with its name in `header`, or 503 (`busy`), or cuts the connection once it read a request (`cut`); a
 * websocket upgrade is switched (101, its name in `header`) and held open until it closes.
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';

export type Mode = 'ok' | 'busy' | 'cut';

export class StandIn {
  mode: Mode = 'ok';
  /** requests it read, as `METHOD path` (`UPGRADE path` for a websocket) */
  seen: string[] = [];
  private server: http.Server | undefined;
  private sockets = new Set<Duplex>();
  readonly header: string;
  readonly name: string;
  readonly port: number;
  constructor(header: string, name: string, port: number) {
    this.header = header;
    this.name = name;
    this.port = port;
  }
  async listen(): Promise<void> {
    if (this.server) return;
    this.server = http.createServer((req, res) => {
      this.seen.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => {
        if (this.mode === 'cut') return req.socket.destroy();
        res.setHeader(this.header, this.name);
        if (this.mode === 'busy') res.statusCode = 503;
        res.end(this.name);
      });
    });
    this.server.on('upgrade', (req: http.IncomingMessage, socket: Duplex) => {
      this.seen.push(`UPGRADE ${req.url}`);
      this.sockets.add(socket);
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n${this.header}: ${this.name}\r\n\r\n`);
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
  }
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}
