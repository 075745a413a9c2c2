/**
 * The Lobby server's client of an ejabberd cluster (docs/operations.md "Scaling"): one HTTP API client per
 * node (EJABBERD_API_URL lists them, comma-separated). A room is one process on the node whose API created
 * it, so room creation is spread over the nodes by the room's name (a retry of one room asks the same node
 * first); a node that does not answer (no connection, its time limit, its own 5xx) is skipped for
 * `downMs` and the call goes to the next node. What a node can say only about its own rooms or sessions
 * (the guests in rooms) is asked of every node, and the answer is "cannot say" (null) while one of them
 * does not answer: a guest whose room sat on a node that is down is not missing, it is rejoining.
 */
import { transient, type EjabberdClient } from './ejabberd.ts';

export interface EjabberdClusterOptions {
  /** how long a node that did not answer is asked only after the others */
  downMs?: number;
  now?: () => number;
  log?: (message: string, error?: unknown) => void;
}

/** A small stable hash of a room's name: the node that creates it. */
function spread(name: string, count: number): number {
  let h = 0;
  for (const c of name) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h % count;
}

export function createEjabberdClusterClient(nodes: EjabberdClient[], opts: EjabberdClusterOptions = {}): EjabberdClient {
  if (nodes.length === 1 && nodes[0]) return nodes[0];
  const downMs = opts.downMs ?? 10_000;
  const now = opts.now ?? Date.now;
  const downUntil = nodes.map(() => -Infinity);

  /** every node once, from `first` on, those that did not answer lately last */
  function order(first: number): number[] {
    const all = nodes.map((_, k) => (first + k) % nodes.length);
    const t = now();
    return [...all.filter((i) => downUntil[i]! <= t), ...all.filter((i) => downUntil[i]! > t)];
  }

  /** `task` on one node after the other until one answers; a refusal (4xx) is an answer and is thrown. */
  async function failover<T>(first: number, what: string, task: (node: EjabberdClient) => Promise<T>): Promise<T> {
    let last: unknown;
    for (const i of order(first)) {
      try {
        const result = await task(nodes[i]!);
        downUntil[i] = -Infinity;
        return result;
      } catch (error) {
        if (!transient(error)) throw error;
        if (downUntil[i]! <= now()) opts.log?.(`ejabberd node ${i + 1} did not answer ${what}: asking the next node`, error);
        downUntil[i] = now() + downMs;
        last = error;
      }
    }
    throw last;
  }

  /** the first node's answer that is not "cannot say" (null), nodes that did not answer lately last */
  async function firstAnswer<T>(task: (node: EjabberdClient) => Promise<T | null>): Promise<T | null> {
    for (const i of order(0)) {
      const answer = await task(nodes[i]!);
      if (answer !== null) return answer;
    }
    return null;
  }

  return {
    ensureRoom: (room) => failover(spread(room.name, nodes.length), `the room ${room.name}`, (node) => node.ensureRoom(room)),
    setAffiliation: (room, jid, affiliation) =>
      failover(spread(room, nodes.length), `an affiliation in ${room}`, (node) => node.setAffiliation(room, jid, affiliation)),
    destroyRoom: (room) => failover(spread(room, nodes.length), `the end of ${room}`, (node) => node.destroyRoom(room)),
    // any node finds a room on any node (its table of rooms is the cluster's)
    roomOccupants: (room) => firstAnswer((node) => node.roomOccupants(room)),
    // each node lists the guests of the rooms it holds: all of them, or "cannot say"
    async roomGuests() {
      const answers = await Promise.all(nodes.map((node) => node.roomGuests()));
      if (answers.some((a) => a === null)) return null;
      const seen = new Set<string>();
      return answers.flatMap((a) => a ?? []).filter((g) => !seen.has(`${g.room}|${g.user}`) && Boolean(seen.add(`${g.room}|${g.user}`)));
    },
    // a session on any node is a session; "no" only when every node says no
    async guestOnline(username) {
      const answers = await Promise.all(nodes.map((node) => node.guestOnline(username)));
      if (answers.includes(true)) return true;
      return answers.includes(null) ? null : false;
    },
    // the service works while one node answers
    async status() {
      const answers = await Promise.all(nodes.map((node) => node.status()));
      return answers.includes(true);
    },
  };
}
