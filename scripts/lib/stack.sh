# shellcheck shell=bash
# Sourced by scripts/start, scripts/stop and scripts/test: installs what is missing and starts/stops the
# servers of the stack as background processes. Every server is started with setsid (its own session,
# so a Ctrl-C in the terminal reaches only what we decide to stop), writes its PID under
# $LOBBY_RUN_DIR/pids and its log under $LOBBY_LOG_DIR, and is stopped by that PID only.
# Starting is idempotent: a server whose PID is alive is reused.
lobby_root=${lobby_root:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# shellcheck source=scripts/lib/node.sh
. "$lobby_root/scripts/lib/node.sh"
# shellcheck source=scripts/lib/env.sh
. "$lobby_root/scripts/lib/env.sh"
# shellcheck source=infra/lib.sh
. "$lobby_root/infra/lib.sh"
# shellcheck source=scripts/lib/ejabberd-cluster.sh
. "$lobby_root/scripts/lib/ejabberd-cluster.sh"

LOBBY_PID_DIR="$LOBBY_RUN_DIR/pids"

lobby_log() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# ------------------------------------------------------------------------------------------- packages
# Debian packages the stack needs. chromium only for the browser tests.
LOBBY_APT_PACKAGES=(ejabberd janus janus-tools coturn nginx libnginx-mod-http-brotli-filter
  libnginx-mod-http-brotli-static brotli systemd postgresql ffmpeg gcc libc6-dev openssl curl perl)

lobby_pkg_installed() {
  [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

# ensure_debian_packages [extra packages...]: installs what is missing when root; otherwise prints the
# exact apt-get line and fails.
ensure_debian_packages() {
  local missing=() p
  for p in "${LOBBY_APT_PACKAGES[@]}" "$@"; do
    lobby_pkg_installed "$p" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if ! lobby_is_root; then
    echo "lobby: missing Debian packages. Install them with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    return 1
  fi
  lobby_log "installing Debian packages: ${missing[*]}"
  # Debian starts a package's system service on install (ejabberd would take port 5280 on all
  # interfaces). Our stack runs its own processes, so keep the services from starting, unless the
  # machine already has its own policy.
  local policy=/usr/sbin/policy-rc.d own_policy=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && own_policy=1
  fi
  local rc=0
  {
    DEBIAN_FRONTEND=noninteractive apt-get update -q &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
  } || rc=$?
  if [ "$own_policy" = 1 ]; then rm -f "$policy"; fi
  return "$rc"
}

# --------------------------------------------------------------------------------------- npm and build
ensure_npm_deps() {
  export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 # Debian's chromium is the browser; never download one
  local stamp="$lobby_root/node_modules/.package-lock.json"
  if [ ! -d "$lobby_root/node_modules" ] || [ ! -f "$stamp" ] || [ "$lobby_root/package-lock.json" -nt "$stamp" ]; then
    lobby_log "npm ci"
    (cd "$lobby_root" && flock /tmp/lobby-npm.lock npm ci --no-audit --no-fund)
  fi
}

# npm run build, only when a source of the apps or packages changed since the last successful build.
# LOBBY_SKIP_BUILD=1 skips it (iterating on the server or the infra while an app does not build).
build_apps() {
  if [ "${LOBBY_SKIP_BUILD:-0}" = 1 ]; then
    echo "build: skipped (LOBBY_SKIP_BUILD=1)"
    return 0
  fi
  local stamp="$lobby_root/node_modules/.lobby-build-stamp" changed=1
  if [ -f "$stamp" ] && [ -d "$lobby_root/apps/guest/dist" ] && [ -d "$lobby_root/apps/guest/dist-ssr" ] &&
    [ -d "$lobby_root/apps/console/dist" ] && [ -d "$lobby_root/apps/widget/dist" ]; then
    changed=$(cd "$lobby_root" && find apps/guest apps/console apps/widget packages \
      \( -name node_modules -o -name dist -o -name dist-ssr -o -name .vite \) -prune -o \
      -type f -newer "$stamp" -print -quit 2>/dev/null | wc -l)
    # A build config at the root (tsconfig.base.json, package-lock.json) matters too.
    [ "$lobby_root/package-lock.json" -nt "$stamp" ] && changed=1
    [ "$lobby_root/tsconfig.base.json" -nt "$stamp" ] && changed=1
  fi
  if [ "$changed" != 0 ]; then
    lobby_log "npm run build"
    local t
    t=$(mktemp "$lobby_root/node_modules/.lobby-build-stamp.XXXX")
    (cd "$lobby_root" && npm run build) || {
      rm -f "$t"
      return 1
    }
    mv "$t" "$stamp" # the stamp's time is the build's start: edits during the build count next time
  else
    echo "build: up to date"
  fi
}

# ------------------------------------------------------------------------------------- process helpers
# lobby_port_open PORT [ADDRESS]: something listens there (127.0.0.1 unless an address is given).
lobby_port_open() { (exec 3<>"/dev/tcp/${2:-127.0.0.1}/$1") 2>/dev/null; }

# The address to reach a server on that listens on ADDRESS (a wildcard is reached on loopback).
lobby_reach_addr() {
  case "$1" in 0.0.0.0 | "::" | "") echo 127.0.0.1 ;; *) echo "$1" ;; esac
}

# lobby_port_free PORT WHAT [ADDRESS]: fails with a clear message when someone else already listens on a
# port we need (on 127.0.0.1 unless an address is given).
lobby_port_free() {
  if lobby_port_open "$1" "${3:-}"; then
    echo "lobby: port ${3:+$3:}$1 (for $2) is already in use by another process; stop it or set other ports (scripts/lib/env.sh)" >&2
    return 1
  fi
}

lobby_pidfile() { echo "$LOBBY_PID_DIR/$1.pid"; }

# lobby_pid NAME: prints the PID of a running server of ours, or fails. The PID file is checked
# against /proc so that a recycled PID of another program is never mistaken for ours.
# lobby_pid_alive NAME: the PID file names a running process (whatever it runs yet).
lobby_pid_alive() {
  local file pid
  file=$(lobby_pidfile "$1")
  case "$1" in ejabberd*) file="$EJ_DIR/ejabberd.pid" ;; esac
  [ -f "$file" ] && pid=$(head -n1 "$file") && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

lobby_pid() {
  local file pid expect
  file=$(lobby_pidfile "$1")
  # ejabberd-I: node I of a cluster, whose EJ_DIR lobby_on_ej_node set (scripts/lib/ejabberd-cluster.sh)
  case "$1" in ejabberd*) file="$EJ_DIR/ejabberd.pid" ;; esac
  [ -f "$file" ] || return 1
  pid=$(head -n1 "$file")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  case "$1" in
    ejabberd*) expect=beam ;;
    janus | janus-*) expect=janus ;;
    coturn) expect=turnserver ;;
    server | server-* | gate | gate-*) expect=node ;;
    nginx) expect=nginx ;;
    *) expect= ;;
  esac
  if [ -n "$expect" ] && ! tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "$expect"; then
    return 1
  fi
  echo "$pid"
}

# lobby_spawn NAME LOG CMD...: runs CMD in its own session in the background, PID to the PID file.
lobby_spawn() {
  local name=$1 log=$2
  shift 2
  mkdir -p "$LOBBY_PID_DIR" "$(dirname "$log")"
  # Not a job-control shell, so the background job is no process group leader and setsid execs in
  # place: $! is the server's own PID.
  setsid "$@" </dev/null >>"$log" 2>&1 &
  echo $! >"$(lobby_pidfile "$name")"
}

# lobby_wait NAME SECONDS CHECK...: polls CHECK (a command) until it succeeds; fails early when the
# server's process died, printing its log's tail.
lobby_wait() {
  local name=$1 secs=$2 log=$3 i
  shift 3
  for ((i = 0; i < secs * 10; i++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    # Alive by PID only: right after the spawn the PID may still run the shell that is about to exec
    # the server, so its command line does not name the server yet (lobby_pid would say "not ours").
    if ! lobby_pid_alive "$name"; then
      # ejabberd writes its PID file only once the node runs: give it a moment before judging.
      if [[ "$name" != ejabberd* ]] || [ "$i" -gt 100 ]; then
        echo "lobby: $name exited during start; last lines of $log:" >&2
        tail -n 40 "$log" >&2 || true
        return 1
      fi
    fi
    sleep 0.1
  done
  echo "lobby: $name not ready after ${secs}s; last lines of $log:" >&2
  tail -n 40 "$log" >&2 || true
  return 1
}

# lobby_kill NAME [SECONDS]: TERM by PID, wait (10 s unless given), KILL as last resort. Never by name.
lobby_kill() {
  local name=$1 secs=${2:-10} pid i
  pid=$(lobby_pid "$name") || {
    rm -f "$(lobby_pidfile "$name")"
    return 0
  }
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < secs * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "$name: did not stop in $secs s, sending KILL to $pid" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$(lobby_pidfile "$name")"
  echo "$name: stopped (pid $pid)"
}

# ------------------------------------------------------------------------------------------- ejabberd
lobby_ejabberd_ready() {
  lobby_port_open "$EJABBERD_WS_PORT" "$EJ_LISTEN_IP" && lobby_port_open "$EJABBERD_API_PORT" "$EJ_LISTEN_IP" && lobby_ejctl status
}

start_ejabberd() {
  local pid log="$EJ_LOG_DIR/ejabberd.log"
  if pid=$(lobby_pid ejabberd); then
    # LOBBY_INSTANCES may have changed: mod_lobby_events posts to every instance (docs/operations.md "Scaling")
    lobby_reload_ejabberd_config || return 1
    echo "ejabberd: already running (pid $pid)"
    return 0
  fi
  lobby_port_free "$EJABBERD_WS_PORT" ejabberd "$EJ_LISTEN_IP" && lobby_port_free "$EJABBERD_API_PORT" ejabberd "$EJ_LISTEN_IP" &&
    lobby_port_free "$EJABBERD_DIST_PORT" ejabberd "$EJ_LISTEN_IP" || return 1
  lobby_gen_ejabberd
  rm -f "$EJ_DIR/ejabberd.pid"
  # `ejabberdctl start` detaches the node itself (erl -detached) and ejabberd writes its own PID file.
  lobby_ejctl start
  # `ejabberdctl started` would wait a minute on an invalid config; poll ourselves and fail fast.
  lobby_wait ejabberd 60 "$log" lobby_ejabberd_ready || return 1
  echo "ejabberd: running (pid $(lobby_pid ejabberd)), ws $EJABBERD_WS_URL, api $EJABBERD_API_URL, log $log"
}

# every node this run dir has (scripts/lib/ejabberd-cluster.sh), the others before node 1
stop_ejabberd() {
  stop_ejabberd_cluster_nodes
  lobby_kill ejabberd
}

# ---------------------------------------------------------------------------------------------- Janus
# LOBBY_JANUS_LOCAL_NODES=2 (the tests' `scale` stage) starts a second Janus node, `janus-2`, beside the
# first (docs/operations.md "Scaling"): its own ports (each of the first's + 1), RTP range
# (JANUS2_RTP_RANGE), config folder and loopback shim ($LOBBY_RUN_DIR/janus-2), log janus-2.log; and
# LOBBY_JANUS_NODES names both for the server and the gate. The default stack runs one Janus.
: "${LOBBY_JANUS_LOCAL_NODES:=1}"
: "${JANUS2_RTP_RANGE:=13200-13399}"
export LOBBY_JANUS_LOCAL_NODES JANUS2_RTP_RANGE

lobby_janus_ready() {
  curl -sf -m 1 "$JANUS_HTTP_URL/info" >/dev/null && lobby_port_open "$JANUS_WS_PORT"
}

# lobby_janus_node_name I: the PID and log name of local node I (janus, janus-2).
lobby_janus_node_name() { if [ "$1" = 1 ]; then echo janus; else echo "janus-$1"; fi; }

# lobby_janus_node_env I: the variables of local node I, to eval in a subshell (node 1: as they are).
lobby_janus_node_env() {
  [ "$1" = 1 ] && return 0
  local ws=$((JANUS_WS_PORT + $1 - 1)) http=$((JANUS_HTTP_PORT + $1 - 1)) admin=$((JANUS_ADMIN_PORT + $1 - 1))
  echo "JANUS_DIR=$LOBBY_RUN_DIR/janus-$1 JANUS_WS_PORT=$ws JANUS_HTTP_PORT=$http JANUS_ADMIN_PORT=$admin" \
    "JANUS_RTP_RANGE=$JANUS2_RTP_RANGE JANUS_WS_URL=ws://127.0.0.1:$ws JANUS_HTTP_URL=http://127.0.0.1:$http/janus" \
    "JANUS_ADMIN_URL=http://127.0.0.1:$admin/admin"
}

# lobby_janus_nodes_env: with several local nodes, LOBBY_JANUS_NODES for the server and the gate
# (apps/server/src/config.ts), unless the environment set it.
lobby_janus_nodes_env() {
  [ "$LOBBY_JANUS_LOCAL_NODES" -gt 1 ] && [ -z "${LOBBY_JANUS_NODES:-}" ] || return 0
  local i entries=
  for ((i = 1; i <= LOBBY_JANUS_LOCAL_NODES; i++)); do
    entries+=$(eval "$(lobby_janus_node_env "$i")" && echo "janus-$i $JANUS_WS_URL $JANUS_HTTP_URL $JANUS_ADMIN_URL; ")
  done
  export LOBBY_JANUS_NODES=${entries%; }
}

start_janus() {
  if ! [[ "$LOBBY_JANUS_LOCAL_NODES" =~ ^[12]$ ]]; then
    echo "lobby: LOBBY_JANUS_LOCAL_NODES must be 1 or 2, not '$LOBBY_JANUS_LOCAL_NODES'" >&2
    return 1
  fi
  local i
  for ((i = 1; i <= LOBBY_JANUS_LOCAL_NODES; i++)); do
    (eval "$(lobby_janus_node_env "$i")" && start_janus_node "$(lobby_janus_node_name "$i")") || return 1
  done
  lobby_janus_nodes_env
}

# start_janus_node NAME: one Janus of the JANUS_* variables in force (a subshell's, for node 2).
start_janus_node() {
  local name=$1 pid log="$LOBBY_LOG_DIR/$1.log"
  if pid=$(lobby_pid "$name"); then
    echo "$name: already running (pid $pid)"
    return 0
  fi
  lobby_port_free "$JANUS_WS_PORT" "$name" && lobby_port_free "$JANUS_HTTP_PORT" "$name" &&
    lobby_port_free "$JANUS_ADMIN_PORT" "$name" || return 1
  lobby_gen_janus
  : >"$log"
  local preload=
  if [ "$LOBBY_LOOPBACK_ICE" = 1 ]; then preload="$JANUS_DIR/lo_shim.so"; fi
  # -N: no stdout logging (the log file is enough); -o: no colours; -D: timestamps.
  lobby_spawn "$name" "$LOBBY_LOG_DIR/$name.stdout.log" \
    env LD_PRELOAD="$preload" janus -F "$JANUS_DIR/conf" -C "$JANUS_DIR/conf/janus.jcfg" -L "$log" -N -o -D
  lobby_wait "$name" 30 "$log" lobby_janus_ready || return 1
  echo "$name: running (pid $(lobby_pid "$name")), ws $JANUS_WS_URL, http $JANUS_HTTP_URL, rtp $JANUS_RTP_RANGE, log $log"
}

# stop_janus: every local node, whatever LOBBY_JANUS_LOCAL_NODES says now.
stop_janus() {
  lobby_kill janus-2
  lobby_kill janus
}

# --------------------------------------------------------------------------------------------- coturn
start_coturn() {
  local pid log="$LOBBY_LOG_DIR/coturn.log"
  if pid=$(lobby_pid coturn); then
    echo "coturn: already running (pid $pid)"
    return 0
  fi
  lobby_port_free "$TURN_PORT" coturn || return 1
  lobby_gen_coturn
  : >"$log"
  lobby_spawn coturn "$LOBBY_LOG_DIR/coturn.stdout.log" turnserver -c "$TURN_DIR/turnserver.conf"
  # the production config listens on TURN_LISTEN_IP:3478 only (infra/coturn/turnserver.production.conf.tmpl)
  if [ "${LOBBY_TURN_CONFIG:-test}" = production ]; then
    lobby_wait coturn 20 "$log" lobby_port_open 3478 "$TURN_LISTEN_IP" || return 1
  else
    lobby_wait coturn 20 "$log" lobby_port_open "$TURN_PORT" || return 1
  fi
  echo "coturn: running (pid $(lobby_pid coturn)), turn:127.0.0.1:$TURN_PORT, log $log"
}

stop_coturn() { lobby_kill coturn; }

# --------------------------------------------------------------------------------------- Lobby server
# LOBBY_INSTANCES of them (scripts/lib/instances.sh, docs/operations.md "Scaling").
lobby_server_ready() { curl -sf -m 2 "http://127.0.0.1:${1:-$LOBBY_API_PORT}/api/health" >/dev/null; }

# start_server: every instance (node apps/server/src/main.ts; LOBBY_SEED_DEMO etc. pass through), one
# after the other: each migrates the database at its start, and the first does it alone.
start_server() {
  lobby_instances_check || return 1
  if [ ! -f "$lobby_root/apps/server/src/main.ts" ]; then
    echo "lobby: apps/server/src/main.ts does not exist yet" >&2
    return 1
  fi
  local i
  for ((i = 1; i <= LOBBY_INSTANCES; i++)); do start_server_instance "$i" || return 1; done
}

# start_server_instance I: instance I on its own port, data folder and log, named I in x-lobby-instance.
start_server_instance() {
  local i=$1 pid name port data log
  name=$(lobby_instance_name "$i")
  port=$(lobby_instance_port "$i")
  data=$(lobby_instance_data_dir "$i")
  log=$(lobby_instance_log "$i")
  if pid=$(lobby_pid "$name"); then
    echo "$name: already running (pid $pid)"
    return 0
  fi
  lobby_port_free "$port" "the Lobby server $name" || return 1
  mkdir -p "$data"
  : >"$log"
  # Behind nginx, which sets X-Forwarded-For to the client's address and X-Forwarded-Proto; the server
  # listens on loopback only, so nothing else can send it those headers. One Janus writes the recordings:
  # every instance reads them from instance 1's folder (named before the line below sets LOBBY_DATA_DIR to
  # this instance's: an assignment on a command's line is seen by the assignments after it).
  local recordings=${LOBBY_RECORDINGS_DIR:-$LOBBY_DATA_DIR/recordings}
  (cd "$lobby_root" && HOST=127.0.0.1 PORT=$port TRUST_PROXY=1 LOBBY_INSTANCE=$i LOBBY_DATA_DIR=$data \
    LOBBY_RECORDINGS_DIR=$recordings \
    lobby_spawn "$name" "$log" node apps/server/src/main.ts)
  lobby_wait "$name" 60 "$log" lobby_server_ready "$port" || return 1
  echo "$name: running (pid $(lobby_pid "$name")), http://127.0.0.1:$port behind nginx, data $data, log $log"
}

# stop_server: every instance this run dir has a PID file for (LOBBY_INSTANCES may have shrunk since), each
# given its drain time (apps/server/src/plugins/external/drain.ts) before a KILL.
stop_server() {
  local file name
  for file in "$LOBBY_PID_DIR"/server.pid "$LOBBY_PID_DIR"/server-*.pid; do
    [ -f "$file" ] || continue
    name=$(basename "$file" .pid)
    lobby_kill "$name" $((${LOBBY_DRAIN_SECONDS:-20} + 5))
  done
}

# ------------------------------------------------------------------------------------------ Janus gate
# The process that checks every browser request to Janus (apps/server/src/gate.ts, docs/security.md);
# nginx sends /janus and /janus-http to it. Its own process: an API restart never cuts a call.
# LOBBY_JANUS_GATES of them (scripts/lib/gates.sh, docs/operations.md "Several Janus gates").
lobby_gate_ready() { curl -sf -m 2 "http://127.0.0.1:${1:-$JANUS_GATE_PORT}/health" >/dev/null; }

# start_gate: every gate that is not running.
start_gate() {
  lobby_gates_check || return 1
  local i
  for ((i = 1; i <= LOBBY_JANUS_GATES; i++)); do start_gate_instance "$i" || return 1; done
}

# start_gate_instance I: gate I on its own port and log, named I in its /health.
start_gate_instance() {
  local i=$1 pid name port log
  name=$(lobby_gate_name "$i")
  port=$(lobby_gate_port "$i")
  log=$(lobby_gate_log "$i")
  if pid=$(lobby_pid "$name"); then
    echo "$name: already running (pid $pid)"
    return 0
  fi
  lobby_port_free "$port" "the Janus gate $name" || return 1
  : >"$log"
  (cd "$lobby_root" && JANUS_GATE_PORT=$port LOBBY_GATE=$i lobby_spawn "$name" "$log" node apps/server/src/gate.ts)
  lobby_wait "$name" 30 "$log" lobby_gate_ready "$port" || return 1
  echo "$name: running (pid $(lobby_pid "$name")), http://127.0.0.1:$port (/janus, /janus-http) behind nginx, log $log"
}

# stop_gate: every gate this run dir has a PID file for (LOBBY_JANUS_GATES may have shrunk since).
stop_gate() {
  local file
  for file in "$LOBBY_PID_DIR"/gate.pid "$LOBBY_PID_DIR"/gate-*.pid; do
    [ -f "$file" ] || continue
    lobby_kill "$(basename "$file" .pid)"
  done
}

# ---------------------------------------------------------------------------------------------- nginx
start_nginx() {
  local pid log="$LOBBY_LOG_DIR/nginx.error.log"
  if pid=$(lobby_pid nginx); then
    # A rebuild since nginx started: its new hashed files must be there before a page asks for them.
    lobby_sync_www
    # LOBBY_INSTANCES may have changed: the upstream is generated again and nginx reloads it (its
    # connections in progress go on; docs/operations.md "Scaling").
    lobby_gen_nginx
    if nginx -t -q -c "$NGINX_DIR/nginx.conf" -p "$NGINX_DIR" >/dev/null 2>"$LOBBY_LOG_DIR/nginx.check.log"; then
      kill -HUP "$pid"
    else
      cat "$LOBBY_LOG_DIR/nginx.check.log" >&2
      return 1
    fi
    echo "nginx: already running (pid $pid), config reloaded"
    return 0
  fi
  lobby_port_free "$PORT" nginx && lobby_port_free "$HTTPS_PORT" nginx || return 1
  lobby_gen_nginx
  nginx -t -q -c "$NGINX_DIR/nginx.conf" -p "$NGINX_DIR" >/dev/null 2>"$LOBBY_LOG_DIR/nginx.check.log" || {
    cat "$LOBBY_LOG_DIR/nginx.check.log" >&2
    return 1
  }
  lobby_spawn nginx "$LOBBY_LOG_DIR/nginx.stdout.log" nginx -c "$NGINX_DIR/nginx.conf" -p "$NGINX_DIR"
  lobby_wait nginx 20 "$log" lobby_port_open "$HTTPS_PORT" "$(lobby_reach_addr "$HOST")" || return 1
  echo "nginx: running (pid $(lobby_pid nginx)), http://127.0.0.1:$PORT https://127.0.0.1:$HTTPS_PORT, log $log"
}

stop_nginx() { lobby_kill nginx; }

# --------------------------------------------------------------------------------------- whole stack
# start_infra: ejabberd (every node of LOBBY_EJABBERD_NODES), Janus and coturn (what the Lobby server needs).
start_infra() {
  mkdir -p "$LOBBY_RUN_DIR" "$LOBBY_LOG_DIR" "$LOBBY_DATA_DIR"
  start_coturn
  start_janus
  start_ejabberd_cluster
}

# stop_stack: everything of this run dir, nginx and the server first (they hold connections to the others).
stop_stack() {
  stop_nginx
  stop_gate
  stop_server
  stop_ejabberd
  stop_janus
  stop_coturn
}

# ------------------------------------------------------------------------------------ set-up helpers
# lobby_prepare [extra Debian packages...]: what both scripts/start and scripts/test need first.
lobby_prepare() {
  lobby_ensure_node
  ensure_debian_packages "$@"
  ensure_npm_deps
}

# Prints how to reach the stack and the demo logins (the server seeds them from these variables).
lobby_print_urls() {
  cat <<TXT

  Lobby is running.
    guest app   http://localhost:$PORT/   https://localhost:$HTTPS_PORT/
    console     http://localhost:$PORT/console
    TLS         $([ "${LOBBY_TLS_CERT:-}" = "$TLS_DIR/server.pem" ] && printf 'development CA %s (trust it to drop the warning)' "$TLS_DIR/ca.pem" || printf '%s' "${LOBBY_TLS_CERT:-made at nginx start}")
    agent       agent@demo.lobby / $DEMO_AGENT_PASSWORD
    admin       admin@demo.lobby / $DEMO_ADMIN_PASSWORD
    logs        $LOBBY_LOG_DIR
    stop        ./scripts/stop$([ "$LOBBY_RUN_DIR" = "$lobby_root/.run" ] || printf ' (with LOBBY_RUN_DIR=%s)' "$LOBBY_RUN_DIR")

TXT
}
