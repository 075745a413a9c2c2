# shellcheck shell=bash
# The Lobby server instances of one stack, side by side on one PostgreSQL (docs/operations.md "Scaling").
# Sourced by infra/lib.sh (nginx's upstream) and so by scripts/lib/stack.sh (start, stop, watch).
#   LOBBY_INSTANCES=N   how many (default 1); N > 1 needs DATABASE_URL=postgres://… (SQLite is one file
#                       that one process writes)
# Instance 1 is the server of a single-instance stack: port LOBBY_API_PORT, data LOBBY_DATA_DIR, log
# server.log, PID file server.pid. Instance i > 1: port LOBBY_API_PORT + 1000·(i-1), data
# LOBBY_DATA_DIR-i, log server-i.log, PID file server-i.pid. All share the recordings folder of instance 1
# (the one Janus writes there).
# LOBBY_FRONT_DOORS=1 (the tests' `scale` stage) adds one nginx port per instance, PORT + 4 + i, whose
# upstream is that instance with the others as backup: a browser there uses the instance it names.

: "${LOBBY_INSTANCES:=1}"
export LOBBY_INSTANCES

# lobby_instances_check: the count is a number from 1 to 9, and more than one runs on PostgreSQL only.
lobby_instances_check() {
  if ! [[ "$LOBBY_INSTANCES" =~ ^[1-9]$ ]]; then
    echo "lobby: LOBBY_INSTANCES must be a number from 1 to 9, not '$LOBBY_INSTANCES'" >&2
    return 1
  fi
  if [ "$LOBBY_INSTANCES" -gt 1 ] && [[ ! "${DATABASE_URL:-}" =~ ^postgres(ql)?:// ]]; then
    echo "lobby: LOBBY_INSTANCES=$LOBBY_INSTANCES needs PostgreSQL: set DATABASE_URL=postgres://user:password@host/db." >&2
    echo "  SQLite (the default) is one file written by one server process; several instances would corrupt" >&2
    echo "  or lock each other (docs/operations.md \"Scaling\")." >&2
    return 1
  fi
}

lobby_instance_name() { if [ "$1" = 1 ]; then echo server; else echo "server-$1"; fi; }
lobby_instance_port() { echo $((LOBBY_API_PORT + 1000 * ($1 - 1))); }
lobby_instance_data_dir() { if [ "$1" = 1 ]; then echo "$LOBBY_DATA_DIR"; else echo "$LOBBY_DATA_DIR-$1"; fi; }
lobby_instance_log() { echo "$LOBBY_LOG_DIR/$(lobby_instance_name "$1").log"; }
lobby_front_door_port() { echo $((PORT + 4 + $1)); }

# lobby_instance_names: the PID names of every instance (server server-2 …), for a watch loop.
lobby_instance_names() {
  local i
  for ((i = 1; i <= LOBBY_INSTANCES; i++)); do lobby_instance_name "$i"; done
}

# lobby_ejabberd_events_urls: EJ_EVENTS_URLS, the YAML list of every instance's loopback URL of
# POST /api/ejabberd-events (the `urls` of mod_lobby_events in infra/ejabberd/ejabberd.yml.tmpl), instance 1
# first: ejabberd posts the guests' events to one and, when it fails, to the next (docs/operations.md
# "Scaling").
lobby_ejabberd_events_urls() {
  local i lines=
  for ((i = 1; i <= LOBBY_INSTANCES; i++)); do
    lines+="      - \"http://127.0.0.1:$(lobby_instance_port "$i")/api/ejabberd-events\""$'\n'
  done
  EJ_EVENTS_URLS=${lines%$'\n'}
  export EJ_EVENTS_URLS
}

# nginx's upstreams (infra/nginx/nginx.conf.tmpl): NGINX_API_SERVERS, every instance; with front doors,
# NGINX_DOOR_UPSTREAMS (one upstream per instance, the others as backup), NGINX_DOOR_LISTEN (their
# ports) and NGINX_DOOR_MAP (port → upstream).
# max_fails=1 fail_timeout=10s: one refused connect or 503 (a draining instance) takes an instance out of
# the rotation for 10 s; the zone shares that among nginx's workers.
lobby_nginx_upstreams() {
  local i j port lines=
  for ((i = 1; i <= LOBBY_INSTANCES; i++)); do
    lines+="    server 127.0.0.1:$(lobby_instance_port "$i") max_fails=1 fail_timeout=10s;"$'\n'
  done
  NGINX_API_SERVERS=${lines%$'\n'}
  NGINX_DOOR_UPSTREAMS=
  NGINX_DOOR_LISTEN=
  NGINX_DOOR_MAP=
  if [ "${LOBBY_FRONT_DOORS:-0}" = 1 ]; then
    for ((i = 1; i <= LOBBY_INSTANCES; i++)); do
      port=$(lobby_front_door_port "$i")
      NGINX_DOOR_UPSTREAMS+="  upstream lobby_api_$i {"$'\n'"    zone lobby_api_$i 64k;"$'\n'
      NGINX_DOOR_UPSTREAMS+="    server 127.0.0.1:$(lobby_instance_port "$i") max_fails=1 fail_timeout=10s;"$'\n'
      for ((j = 1; j <= LOBBY_INSTANCES; j++)); do
        [ "$j" = "$i" ] || NGINX_DOOR_UPSTREAMS+="    server 127.0.0.1:$(lobby_instance_port "$j") backup;"$'\n'
      done
      NGINX_DOOR_UPSTREAMS+="    keepalive 8;"$'\n'"  }"$'\n'
      NGINX_DOOR_LISTEN+="    listen $HOST:$port;"$'\n'
      NGINX_DOOR_MAP+="    $port lobby_api_$i;"$'\n'
    done
  fi
  export NGINX_API_SERVERS NGINX_DOOR_UPSTREAMS NGINX_DOOR_LISTEN NGINX_DOOR_MAP
}
