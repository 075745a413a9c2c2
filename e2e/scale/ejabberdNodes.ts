/**
 * The scale stage's ejabberd cluster as a journey sees it (scripts/lib/ejabberd-cluster.sh, docs/operations.md
 * "Scaling"): two nodes, node I on 127.0.0.I, nginx's XMPP door per node (PORT + 2 + I: the apps loaded there
 * have their XMPP session on that node, the other as backup), and what each node says about itself: the
 * guests in the rooms it holds (`lobby_room_guests` reads a table of its own) and the node of each session
 * (`ejabberdctl user_sessions_info`). Nodes are killed and started with the scripts' own functions.
 */
import { roomGuestsOn } from '../support/roomGuests.ts';
import { stackScript } from './instances.ts';

const port = Number(process.env.PORT ?? 8080);
const apiUrls = (process.env.EJABBERD_API_URL ?? 'http://127.0.0.1:5281/api').split(',');
const MUC = process.env.XMPP_MUC_DOMAIN ?? 'conference.lobby.local';
const GUEST_HOST = process.env.XMPP_GUEST_DOMAIN ?? 'guest.lobby.local';

export type Node = 1 | 2;

/** The nginx door whose XMPP websocket goes to node `i` (the other node as backup). */
export const xmppDoor = (i: Node): string => `http://127.0.0.1:${port + 2 + i}`;

/** The node holding `room` (its local name), as the node whose own table lists `guest` in it; null when none does. */
export async function roomNode(room: string, guest: string): Promise<Node | null> {
  for (const i of [1, 2] as const) {
    const list = await roomGuestsOn(apiUrls[i - 1] ?? '', MUC, GUEST_HOST);
    if (list?.some((g) => g.room === room && g.user === guest)) return i;
  }
  return null;
}

/** The nodes of a user's sessions now (`user` without its host), as ejabberd's own command says on the first node that answers. */
export async function sessionNodes(user: string, host: string): Promise<Node[]> {
  const out = await stackScript(
    `lobby_on_ej_node 1 lobby_ejctl user_sessions_info ${user} ${host} 2>/dev/null || lobby_on_ej_node 2 lobby_ejctl user_sessions_info ${user} ${host}`,
  ).catch(() => '');
  return out
    .split('\n')
    .flatMap((line) => line.replaceAll("'", '').split('\t'))
    .flatMap((field): Node[] => (/@localhost$/.test(field) ? [1] : /@lobby-ej2$/.test(field) ? [2] : []));
}

/** SIGKILL to node `i` (a crash: no goodbye to anyone); resolves once the process is gone. */
export async function killNode(i: Node): Promise<void> {
  await stackScript(
    `k() { local pid; pid=$(lobby_pid "$(lobby_ej_pid_name ${i})") && kill -KILL "$pid" && while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done; }; lobby_on_ej_node ${i} k`,
  );
}

/** Starts every node that does not run (a node other than the first joins the cluster): the script's output. */
export async function startNodes(): Promise<string> {
  return stackScript('start_ejabberd_cluster');
}

/** The nodes in node `i`'s cluster now (`ejabberdctl list_cluster`). */
export async function clusterOf(i: Node): Promise<string[]> {
  const out = await stackScript(`lobby_on_ej_node ${i} lobby_ej_cluster_nodes`);
  return out.split('\n').filter(Boolean);
}

/** Node `i`'s own websocket (loopback, not through nginx): a raw XMPP client there has its session on that node. */
export const nodeWebsocket = (i: Node): string => `ws://127.0.0.${i}:${process.env.EJABBERD_WS_PORT ?? 5280}/ws`;
