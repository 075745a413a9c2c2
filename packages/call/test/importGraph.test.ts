/**
 * The zones of packages/call (docs/architecture.md "Package zones") over the real source files: no
 * circle of imports, and no import from a zone to one above it. The lint rule (eslint.layers.js) stops a
 * back-edge as it is written; this reads every file's imports, type-only ones included, and also finds
 * circles inside a zone, which no import rule can.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { backEdges, importCircles, importGraph, type ImportGraph } from './helpers/importGraph.ts';

const SRC = path.resolve(import.meta.dirname, '../src');

/** Each zone and the zones it may import (its own always): the order of the lint's zone rules. */
const ALLOWED: Record<string, string[]> = {
  shared: ['shared', 'state'],
  state: ['shared'],
  diagnostics: ['shared'],
  api: ['shared'],
  xmpp: ['shared'],
  ports: ['shared', 'api', 'xmpp'],
  media: ['shared', 'api', 'xmpp', 'ports'],
  composition: ['shared', 'api', 'xmpp', 'ports', 'media'],
  room: ['shared', 'state', 'api', 'xmpp', 'ports', 'media', 'composition'],
  guest: ['shared', 'state', 'api', 'xmpp', 'ports', 'media', 'composition', 'room'],
  agent: ['shared', 'state', 'api', 'xmpp', 'ports', 'media', 'composition', 'room'],
  index: ['shared', 'state', 'api', 'xmpp', 'ports', 'media', 'composition', 'room', 'guest', 'agent'],
};

describe('import graph of packages/call', () => {
  const graph = importGraph(SRC);

  it('when every source file is read, then no imports form a circle', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(importCircles(graph)).toEqual([]);
  });

  it('when every source file is read, then no zone imports one above it', () => {
    expect(backEdges(graph, ALLOWED)).toEqual([]);
  });

  it('when two files import each other through a third, then the circle is found', () => {
    const circle: ImportGraph = new Map([
      ['room/ports.ts', ['media/mediaSession.ts']],
      ['media/mediaSession.ts', ['media/standby.ts']],
      ['media/standby.ts', ['room/ports.ts']],
      ['media/retry.ts', []],
    ]);
    expect(importCircles(circle)).toEqual([['media/mediaSession.ts', 'media/standby.ts', 'room/ports.ts']]);
  });

  it('when media imports room or guest imports agent, then each is a back-edge', () => {
    const crossing: ImportGraph = new Map([
      ['media/iceRestart.ts', ['room/ports.ts', 'ports/clock.ts']],
      ['guest/guestCall.ts', ['agent/agentDesk.ts', 'room/callRoom.ts']],
    ]);
    expect(backEdges(crossing, ALLOWED)).toEqual(['media/iceRestart.ts → room/ports.ts', 'guest/guestCall.ts → agent/agentDesk.ts']);
  });
});
