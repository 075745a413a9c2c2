# shellcheck shell=bash
# Sourced by the project's scripts: the one place that sets the environment of docs/architecture.md.
# Every variable keeps a value already present in the environment, so a second stack (the tests' one)
# can run beside a dev stack with other ports and another run dir. URLs are derived from the ports
# unless they are set themselves.
# Secrets are created once with random values in $LOBBY_RUN_DIR/secrets.env and exported.
lobby_root=${lobby_root:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}

: "${PORT:=8080}"
: "${HOST:=127.0.0.1}"
# nginx listens on HOST:PORT (HTTP) and HOST:HTTPS_PORT (TLS), the only public listener (a deployment sets
# HOST=0.0.0.0, PORT=80, HTTPS_PORT=443); the Lobby server on 127.0.0.1:LOBBY_API_PORT behind it.
: "${HTTPS_PORT:=8443}"
: "${LOBBY_API_PORT:=8081}"
# the Janus gate (apps/server/src/gate.ts) on 127.0.0.1, behind nginx's /janus and /janus-http
: "${JANUS_GATE_PORT:=8082}"
: "${EJABBERD_WS_PORT:=5280}"
: "${EJABBERD_API_PORT:=5281}"
: "${EJABBERD_DIST_PORT:=5282}"
: "${JANUS_WS_PORT:=8188}"
: "${JANUS_HTTP_PORT:=8088}"
: "${JANUS_ADMIN_PORT:=7088}"
: "${JANUS_RTP_RANGE:=10000-10199}"
# How long Janus keeps a session whose websocket dropped, for the browser to claim it on a new one
# (docs/protocol.md "Session reclaim"); longer than a gate or nginx restart, shorter than a dead tab.
: "${JANUS_RECLAIM_SECONDS:=30}"
# How long Janus keeps a session that sends no keepalive while its websocket stays open: a browser whose
# network is gone (docs/protocol.md "ICE restart"). janus.js's keepalives (every 25 s) go over the same
# network as the media, so Debian's 60 s would end the call of a guest who is offline for a minute; 180 s
# covers the outage plus the stalled TCP's retransmission back-off after it.
: "${JANUS_SESSION_SECONDS:=180}"
# Janus's media event loops, shared by all handles (docs/performance.md "Calls per Janus core"): Debian's
# default is a thread per handle, and with four handles per call the kernel's task switches were ≈ 40 % of
# Janus's CPU. One loop per core; 0 keeps Janus's thread per handle.
: "${JANUS_EVENT_LOOPS:=$(nproc 2>/dev/null || echo 2)}"
: "${TURN_PORT:=3478}"
: "${TURN_RELAY_RANGE:=49160-49259}"
# The address of coturn that XMPP clients are told (XEP-0215); a deployment sets its public name.
: "${TURN_HOST:=127.0.0.1}"
: "${PG_PORT:=5433}"
: "${LOBBY_RUN_DIR:=$lobby_root/.run}"
: "${LOBBY_DATA_DIR:=$lobby_root/data}"
: "${XMPP_DOMAIN:=lobby.local}"
: "${XMPP_GUEST_DOMAIN:=guest.lobby.local}"
: "${XMPP_MUC_DOMAIN:=conference.lobby.local}"
: "${EJABBERD_API_URL:=http://127.0.0.1:$EJABBERD_API_PORT/api}"
: "${EJABBERD_WS_URL:=ws://127.0.0.1:$EJABBERD_WS_PORT/ws}"
: "${JANUS_WS_URL:=ws://127.0.0.1:$JANUS_WS_PORT}"
: "${JANUS_HTTP_URL:=http://127.0.0.1:$JANUS_HTTP_PORT/janus}"
: "${JANUS_ADMIN_URL:=http://127.0.0.1:$JANUS_ADMIN_PORT/admin}"
# 1 (default): make 127.0.0.1 Janus's only ICE candidate (LD_PRELOAD shim, see infra/janus/lo_shim.c).
# Right for tests, CI and loopback-only machines; a real deployment sets 0 plus JANUS_NAT_1_1_MAPPING.
: "${LOBBY_LOOPBACK_ICE:=1}"
: "${JANUS_NAT_1_1_MAPPING:=}"
: "${LOBBY_LOG_DIR:=$LOBBY_RUN_DIR/logs}"
# 1: nginx's plain-HTTP port redirects to HTTPS (but Let's Encrypt's challenge); 0: it serves the apps over
# HTTP too. On by default when the operator gives a certificate (LOBBY_TLS_CERT: a deployment), off for
# the development certificate, so a dev or test stack keeps working on http://127.0.0.1 (a page on
# loopback is a secure context for the browser: camera and microphone work). docs/operations.md.
if [ -z "${LOBBY_HTTPS_REDIRECT:-}" ]; then
  LOBBY_HTTPS_REDIRECT=0
  [ -n "${LOBBY_TLS_CERT:-}" ] && LOBBY_HTTPS_REDIRECT=1
fi

# Relative dirs would break once a script cd's (ejabberdctl cd's into its spool dir).
case "$LOBBY_RUN_DIR" in /*) ;; *) LOBBY_RUN_DIR="$lobby_root/$LOBBY_RUN_DIR" ;; esac
case "$LOBBY_DATA_DIR" in /*) ;; *) LOBBY_DATA_DIR="$lobby_root/$LOBBY_DATA_DIR" ;; esac
case "$LOBBY_LOG_DIR" in /*) ;; *) LOBBY_LOG_DIR="$lobby_root/$LOBBY_LOG_DIR" ;; esac

export PORT HOST HTTPS_PORT LOBBY_API_PORT JANUS_GATE_PORT EJABBERD_WS_PORT EJABBERD_API_PORT EJABBERD_DIST_PORT JANUS_WS_PORT JANUS_HTTP_PORT \
  JANUS_ADMIN_PORT JANUS_RTP_RANGE JANUS_RECLAIM_SECONDS JANUS_SESSION_SECONDS JANUS_EVENT_LOOPS TURN_PORT TURN_RELAY_RANGE TURN_HOST PG_PORT LOBBY_RUN_DIR LOBBY_DATA_DIR \
  XMPP_DOMAIN XMPP_GUEST_DOMAIN XMPP_MUC_DOMAIN EJABBERD_API_URL EJABBERD_WS_URL JANUS_WS_URL \
  JANUS_HTTP_URL JANUS_ADMIN_URL LOBBY_LOOPBACK_ICE JANUS_NAT_1_1_MAPPING LOBBY_LOG_DIR LOBBY_HTTPS_REDIRECT

# The secrets every part shares. LOBBY_PG_PASSWORD is the tests' PostgreSQL user; EJABBERD_COOKIE is the
# Erlang distribution cookie of our ejabberd node (so no other node on the machine can talk to it).
LOBBY_SECRET_VARS=(XMPP_JWT_SECRET TURN_SECRET API_TOKEN_SECRET SESSION_SECRET JANUS_ADMIN_SECRET EJABBERD_EVENTS_SECRET
  JANUS_TOKEN_SECRET JANUS_ROOM_ADMIN_KEY EJABBERD_COOKIE LOBBY_PG_PASSWORD DEMO_AGENT_PASSWORD DEMO_ADMIN_PASSWORD)

# A random alphanumeric string (no quoting trouble in YAML, jcfg, turnserver.conf or a URL).
# head ends first, so no SIGPIPE trips pipefail.
lobby_random() {
  local n=${1:-40}
  head -c $((n * 2)) /dev/urandom | base64 -w0 | tr -dc 'A-Za-z0-9' | cut -c1-"$n"
}

lobby_load_secrets() {
  local file="$LOBBY_RUN_DIR/secrets.env" var len
  mkdir -p "$LOBBY_RUN_DIR"
  if [ ! -f "$file" ]; then
    (umask 077 && : >"$file")
  fi
  for var in "${LOBBY_SECRET_VARS[@]}"; do
    if ! grep -q "^$var=" "$file"; then
      # Demo passwords are typed by people: shorter.
      case "$var" in DEMO_*) len=16 ;; *) len=48 ;; esac
      printf '%s=%s\n' "$var" "$(lobby_random "$len")" >>"$file"
    fi
    # A value already in the environment wins (a deployment injects its own secrets).
    if [ -z "${!var:-}" ]; then
      printf -v "$var" '%s' "$(sed -n "s/^$var=//p" "$file" | tail -n1)"
    fi
    export "${var?}"
  done
}

lobby_load_secrets
