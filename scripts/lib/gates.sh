# shellcheck shell=bash
# The Janus gates of one stack (apps/server/src/gate.ts), side by side behind nginx's /janus and /janus-http
# (docs/operations.md "Scaling", "Several Janus gates"). Sourced by infra/lib.sh (nginx's upstream) and so by
# scripts/lib/stack.sh (start, stop, watch).
#   LOBBY_JANUS_GATES=N   how many (default 1, at most 9)
# Gate 1 is the gate of a one-gate stack: port JANUS_GATE_PORT, log gate.log, PID file gate.pid. Gate i > 1:
# port JANUS_GATE_PORT + 1000·(i-1) (the instances' shift, scripts/lib/instances.sh), log gate-i.log,
# PID file gate-i.pid. A gate keeps nothing another gate needs: a session made through one is claimed
# through another with its token, as Janus's admin API tells (docs/protocol.md "Session reclaim").

: "${LOBBY_JANUS_GATES:=1}"
export LOBBY_JANUS_GATES

# lobby_gates_check: the count is a number from 1 to 9.
lobby_gates_check() {
  if ! [[ "$LOBBY_JANUS_GATES" =~ ^[1-9]$ ]]; then
    echo "lobby: LOBBY_JANUS_GATES must be a number from 1 to 9, not '$LOBBY_JANUS_GATES'" >&2
    return 1
  fi
}

lobby_gate_name() { if [ "$1" = 1 ]; then echo gate; else echo "gate-$1"; fi; }
lobby_gate_port() { echo $((JANUS_GATE_PORT + 1000 * ($1 - 1))); }
lobby_gate_log() { echo "$LOBBY_LOG_DIR/$(lobby_gate_name "$1").log"; }

# lobby_gate_names: the PID names of every gate (gate gate-2 …), for a watch loop.
lobby_gate_names() {
  local i
  for ((i = 1; i <= LOBBY_JANUS_GATES; i++)); do lobby_gate_name "$i"; done
}

# NGINX_GATE_SERVERS: every gate, for nginx's upstream lobby_janus_gate (infra/nginx/nginx.conf.tmpl). A
# connection a gate refuses (killed, restarting) goes to the next gate (proxy_next_upstream error).
# max_fails=0: a gate is never left out. nginx lets a gate it left out back in by one connection, and
# holds it out for everyone else until that connection ends, which for a websocket is the whole call: a
# gate that came back would still be out when the other dies (no live upstream). A refused connect on
# loopback costs nothing.
lobby_nginx_gate_servers() {
  local i lines=
  for ((i = 1; i <= LOBBY_JANUS_GATES; i++)); do
    lines+="    server 127.0.0.1:$(lobby_gate_port "$i") max_fails=0;"$'\n'
  done
  NGINX_GATE_SERVERS=${lines%$'\n'}
  export NGINX_GATE_SERVERS
}
