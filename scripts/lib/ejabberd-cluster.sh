# shellcheck shell=bash
# An ejabberd cluster on one machine (docs/operations.md "Scaling"): LOBBY_EJABBERD_NODES nodes (default 1)
# in one Mnesia cluster, with the same cookie, JWT key and modules, each with its own config, spool and
# logs, address and node name (infra/lib.sh lobby_ej_node_vars). Node 1 is the stack's own (start_ejabberd);
# node I > 1 joins it with `ejabberdctl join_cluster` from an empty spool, at every start (a restart too).
# Node 1 restarted while another node runs takes the tables back from it (Mnesia: restart the last node
# that stopped first). Sourced by scripts/lib/stack.sh.
: "${LOBBY_EJABBERD_NODES:=1}"
export LOBBY_EJABBERD_NODES

lobby_ejabberd_nodes_check() {
  if ! [[ "$LOBBY_EJABBERD_NODES" =~ ^[1-9]$ ]]; then
    echo "lobby: LOBBY_EJABBERD_NODES must be a number from 1 to 9, not '$LOBBY_EJABBERD_NODES'" >&2
    return 1
  fi
}

# lobby_on_ej_node I CMD...: runs CMD with node I's EJ_* variables (bash's dynamic scope reaches every
# function CMD calls: lobby_ejctl, lobby_pid, lobby_gen_ejabberd …).
lobby_on_ej_node() {
  local EJ_DIR EJ_LOG_DIR EJ_NODE EJ_LISTEN_IP EJ_JWK_FILE EJ_PLACE_SUFFIX
  lobby_ej_node_vars "$1"
  shift
  "$@"
}

# the PID name of node I (lobby_pid, lobby_kill)
lobby_ej_pid_name() { if [ "$1" = 1 ]; then echo ejabberd; else echo "ejabberd-$1"; fi; }

# EJABBERD_API_URL for the Lobby server: every node's API, comma-separated (apps/server/src/services/ejabberd.ts
# spreads room creation over them and fails over to the next).
lobby_ejabberd_api_urls() {
  local i urls=
  for ((i = 1; i <= LOBBY_EJABBERD_NODES; i++)); do urls+="${urls:+,}http://127.0.0.$i:$EJABBERD_API_PORT/api"; done
  echo "$urls"
}

# lobby_ej_cluster_nodes: the nodes the current node counts in its cluster, one a line (ejabberdctl
# list_cluster quotes a name with a hyphen as an Erlang atom: 'lobby5292@lobby-ej2').
lobby_ej_cluster_nodes() { lobby_ejctl list_cluster 2>/dev/null | tr -d "'"; }

# env.sh's EJABBERD_API_URL names node 1 alone; with several nodes and no URL of the operator's, every node's
if [ "$LOBBY_EJABBERD_NODES" != 1 ] && [ "${EJABBERD_API_URL:-}" = "http://127.0.0.1:$EJABBERD_API_PORT/api" ]; then
  EJABBERD_API_URL=$(lobby_ejabberd_api_urls)
  export EJABBERD_API_URL
fi

# start_ejabberd_cluster: every node, node 1 first; each other one joined to it.
start_ejabberd_cluster() {
  lobby_ejabberd_nodes_check || return 1
  start_ejabberd || return 1
  local i
  for ((i = 2; i <= LOBBY_EJABBERD_NODES; i++)); do start_ejabberd_node "$i" || return 1; done
}

# start_ejabberd_node I: node I started (and joined), or reused when it runs.
start_ejabberd_node() {
  if [ "$1" = 1 ]; then
    start_ejabberd
    return
  fi
  lobby_on_ej_node "$1" lobby_start_cluster_node "$1"
}

lobby_start_cluster_node() {
  local i=$1 name pid log first t0 t1
  name=$(lobby_ej_pid_name "$i")
  log="$EJ_LOG_DIR/ejabberd.log"
  if pid=$(lobby_pid "$name"); then
    lobby_reload_ejabberd_config || return 1
    echo "$name: already running (pid $pid)"
    return 0
  fi
  lobby_port_free "$EJABBERD_WS_PORT" "$name" "$EJ_LISTEN_IP" && lobby_port_free "$EJABBERD_API_PORT" "$name" "$EJ_LISTEN_IP" &&
    lobby_port_free "$EJABBERD_DIST_PORT" "$name" "$EJ_LISTEN_IP" || return 1
  first=$(lobby_ej_node_name 1)
  # Always from an empty spool: it holds nothing but copies of the cluster's tables, which the join copies
  # again, and a spool of an older cluster (node 1's made afresh since) would keep the node from starting.
  rm -rf "$EJ_DIR/spool"
  lobby_gen_ejabberd
  rm -f "$EJ_DIR/ejabberd.pid"
  lobby_ejctl start
  lobby_wait "$name" 60 "$log" lobby_ejabberd_ready || return 1
  # join_cluster stops the node's ejabberd, copies node 1's Mnesia schema and tables, starts it again
  t0=$(date +%s%N)
  lobby_ejctl join_cluster "$first" || {
    echo "lobby: $name could not join $first; last lines of $log:" >&2
    tail -n 40 "$log" >&2
    return 1
  }
  lobby_wait "$name" 60 "$log" lobby_ejabberd_ready || return 1
  t1=$(date +%s%N)
  echo "$name: joined $first in $(((t1 - t0) / 1000000)) ms"
  lobby_ej_cluster_nodes | grep -qxF "$first" || {
    echo "lobby: $name runs but is not in $first's cluster (ejabberdctl list_cluster: $(lobby_ej_cluster_nodes | tr '\n' ' '))" >&2
    return 1
  }
  echo "$name: running (pid $(lobby_pid "$name")) as $EJ_NODE on $EJ_LISTEN_IP, cluster: $(lobby_ej_cluster_nodes | tr '\n' ' ')log $log"
}

# stop_ejabberd_cluster_nodes: every node but node 1 this run dir has a folder for (LOBBY_EJABBERD_NODES
# may have shrunk since).
stop_ejabberd_cluster_nodes() {
  local i
  for ((i = 2; i <= 9; i++)); do
    [ -e "$LOBBY_RUN_DIR/ejabberd-$i" ] || continue
    lobby_on_ej_node "$i" lobby_kill "$(lobby_ej_pid_name "$i")"
  done
}

# lobby_ejabberd_door_port I: the tests' nginx port whose XMPP websocket prefers node I (LOBBY_FRONT_DOORS=1
# with more than one node): PORT + 2 + I, below the instances' front doors (PORT + 4 + I, scripts/lib/instances.sh);
# PORT + 8 is the tests' Janus HTTP port (scripts/lib/test-env.sh).
lobby_ejabberd_door_port() { echo $((PORT + 2 + $1)); }

# nginx's XMPP upstreams (infra/nginx/nginx.conf.tmpl): NGINX_XMPP_SERVERS, every node's websocket (a node
# that refuses a connection is left out for 10 s); with front doors and more than one node,
# NGINX_XMPP_DOOR_UPSTREAMS (one upstream per node, the others as backup), NGINX_XMPP_DOOR_LISTEN (their
# ports) and NGINX_XMPP_DOOR_MAP (port → upstream). A browser that loads the apps through such a door has
# its XMPP session on that node while it runs (its API calls still go to every instance).
lobby_nginx_xmpp_upstreams() {
  local i j lines=
  for ((i = 1; i <= LOBBY_EJABBERD_NODES; i++)); do
    lines+="    server 127.0.0.$i:$EJABBERD_WS_PORT max_fails=1 fail_timeout=10s;"$'\n'
  done
  NGINX_XMPP_SERVERS=${lines%$'\n'}
  NGINX_XMPP_DOOR_UPSTREAMS=
  NGINX_XMPP_DOOR_LISTEN=
  NGINX_XMPP_DOOR_MAP=
  if [ "${LOBBY_FRONT_DOORS:-0}" = 1 ] && [ "$LOBBY_EJABBERD_NODES" -gt 1 ]; then
    for ((i = 1; i <= LOBBY_EJABBERD_NODES; i++)); do
      NGINX_XMPP_DOOR_UPSTREAMS+="  upstream lobby_xmpp_$i {"$'\n'"    server 127.0.0.$i:$EJABBERD_WS_PORT max_fails=1 fail_timeout=10s;"$'\n'
      for ((j = 1; j <= LOBBY_EJABBERD_NODES; j++)); do
        [ "$j" = "$i" ] || NGINX_XMPP_DOOR_UPSTREAMS+="    server 127.0.0.$j:$EJABBERD_WS_PORT backup;"$'\n'
      done
      NGINX_XMPP_DOOR_UPSTREAMS+="  }"$'\n'
      NGINX_XMPP_DOOR_LISTEN+="    listen $HOST:$(lobby_ejabberd_door_port "$i");"$'\n'
      NGINX_XMPP_DOOR_MAP+="    $(lobby_ejabberd_door_port "$i") lobby_xmpp_$i;"$'\n'
    done
  fi
  export NGINX_XMPP_SERVERS NGINX_XMPP_DOOR_UPSTREAMS NGINX_XMPP_DOOR_LISTEN NGINX_XMPP_DOOR_MAP
}
