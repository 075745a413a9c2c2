# shellcheck shell=bash
# Config generators for the real servers (ejabberd, Janus, coturn, the tests' PostgreSQL cluster).
# Sourced by scripts/lib/stack.sh after scripts/lib/env.sh. Everything is generated under
# $LOBBY_RUN_DIR from the templates beside this file (or, for Janus, from Debian's pristine /etc/janus
# copies); nothing is ever written to /etc.
lobby_infra_dir=${lobby_infra_dir:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}
# the Lobby server instances behind nginx (LOBBY_INSTANCES)
# shellcheck source=scripts/lib/instances.sh
. "$lobby_infra_dir/../scripts/lib/instances.sh"
# the Janus gates behind nginx's /janus and /janus-http (LOBBY_JANUS_GATES)
# shellcheck source=scripts/lib/gates.sh
. "$lobby_infra_dir/../scripts/lib/gates.sh"
# the ejabberd nodes nginx's XMPP upstreams list (lobby_nginx_xmpp_upstreams)
# shellcheck source=scripts/lib/ejabberd-cluster.sh
. "$lobby_infra_dir/../scripts/lib/ejabberd-cluster.sh"

lobby_is_root() { [ "$(id -u)" = 0 ]; }

# lobby_home_for USER DIR: prints where a server that runs as USER (as root, ejabberd and PostgreSQL
# run as their own users) keeps what it would keep in DIR. DIR itself when USER can reach it; when the
# checkout lies under a folder USER cannot enter (root's home, a `mktemp -d` folder), the same name
# under /var/tmp/lobby-<hash of DIR's parent>, which is reachable whatever the checkout's path.
# Derived from the path alone, so every script that sources this file finds the same place.
# scripts/test removes them with the run dir (scripts/lib/homes.sh lobby_release_homes).
lobby_home_for() {
  local dir=$2
  if ! lobby_is_root || lobby_others_can_enter "$(dirname "$dir")"; then
    echo "$dir"
    return 0
  fi
  echo "/var/tmp/lobby-$(printf '%s' "$(dirname "$dir")" | sha1sum | cut -c1-12)/$(basename "$dir")"
}

# lobby_others_can_enter DIR: every existing folder on DIR's path lets other users through (o+x).
# Judged by the modes alone, so the answer does not depend on whether a server's user exists yet.
lobby_others_can_enter() {
  local d=$1 mode
  while [ "$d" != / ] && [ -n "$d" ]; do
    if [ -e "$d" ]; then
      mode=$(stat -L -c %A "$d") || return 1
      case "${mode:9:1}" in x | t) ;; *) return 1 ;; esac
    fi
    d=$(dirname "$d")
  done
}

# lobby_link_home PLACE HOME: when a server's folder lives elsewhere, a link at its usual place in the
# run or log dir points at it, so that people (and tests) find its files where they always are.
lobby_link_home() {
  local place=$1 home=$2
  [ "$place" = "$home" ] && return 0
  mkdir -p "$(dirname "$place")"
  if [ -d "$place" ] && [ ! -L "$place" ]; then rm -rf "$place"; fi
  ln -sfn "$home" "$place"
}

# lobby_mkhome DIR...: creates such folders, their /var/tmp parent reachable by the servers' users.
lobby_mkhome() {
  local d
  for d in "$@"; do
    case "$d" in /var/tmp/lobby-*) mkdir -p "$(dirname "$d")" && chmod 755 "$(dirname "$d")" ;; esac
    mkdir -p "$d"
  done
}

# render TEMPLATE OUT: replaces @@NAME@@ by $NAME (exported or not), failing on any unset name so a
# typo cannot produce a config with an empty value. perl-base is essential on Debian, so it is there.
lobby_render() {
  local tmpl=$1 out=$2 names name
  names=$(grep -o '@@[A-Z0-9_]*@@' "$tmpl" | sort -u | tr -d '@') || true
  for name in $names; do
    if [ -z "${!name+x}" ]; then
      echo "lobby: $tmpl needs \$$name, which is not set" >&2
      return 1
    fi
    export "${name?}"
  done
  perl -pe 's/@@([A-Z0-9_]+)@@/$ENV{$1}/ge' "$tmpl" >"$out.tmp"
  mv "$out.tmp" "$out"
}

# ---------------------------------------------------------------------------------------------- ejabberd
# lobby_ej_node_vars I: the folders, Erlang node name and address of ejabberd node I (docs/operations.md
# "Scaling"). Node 1 is the stack's own: $LOBBY_RUN_DIR/ejabberd, lobby<dist port>@localhost on 127.0.0.1.
# Node I > 1 (LOBBY_EJABBERD_NODES, scripts/lib/ejabberd-cluster.sh): $LOBBY_RUN_DIR/ejabberd-I,
# lobby<dist port>@lobby-ejI on 127.0.0.I. With ERL_DIST_PORT every node listens on that one port and
# dials the others on it, so each node needs an address of its own, and a host part that the inetrc
# (infra/ejabberd/inetrc) maps to it; its websocket and API listeners take the same ports on it.
# The Erlang node name carries the distribution port, so a second stack is a different node.
lobby_ej_node_name() {
  if [ "$1" = 1 ]; then echo "lobby${EJABBERD_DIST_PORT}@localhost"; else echo "lobby${EJABBERD_DIST_PORT}@lobby-ej$1"; fi
}
lobby_ej_node_vars() {
  local suffix=
  [ "$1" = 1 ] || suffix="-$1"
  EJ_DIR=$(lobby_home_for ejabberd "$LOBBY_RUN_DIR/ejabberd$suffix")
  EJ_LOG_DIR=$(lobby_home_for ejabberd "$LOBBY_LOG_DIR/ejabberd$suffix")
  EJ_NODE=$(lobby_ej_node_name "$1")
  EJ_LISTEN_IP="127.0.0.$1"
  EJ_JWK_FILE="$EJ_DIR/conf/jwt.jwk"
  EJ_PLACE_SUFFIX=$suffix
}
lobby_ej_node_vars 1

# ejabberdctl with our folders. As root, Debian's ejabberdctl switches to the `ejabberd` user
# (so our folders belong to it); any other user is refused by it, so that user gets a copy of the
# script that runs the node as the current user.
lobby_ejctl() {
  local ctl=/usr/sbin/ejabberdctl
  lobby_is_root || ctl="$EJ_DIR/ejabberdctl"
  "$ctl" --config-dir "$EJ_DIR/conf" --logs "$EJ_LOG_DIR" --spool "$EJ_DIR/spool" "$@"
}

# lobby_render_ejabberd_config OUT: infra/ejabberd/ejabberd.yml.tmpl for this stack into OUT.
lobby_render_ejabberd_config() {
  # XEP-0215 names TURN over TLS when coturn serves it (the production config), so that a guest whose
  # firewall passes only TLS still reaches the relay.
  EJ_TURNS_SERVICE=
  if [ "${LOBBY_TURN_CONFIG:-test}" = production ]; then
    EJ_TURNS_SERVICE="      - host: $TURN_HOST
        port: ${TURN_TLS_PORT:-5349}
        type: turns
        transport: tcp
        restricted: true"
  fi
  lobby_ejabberd_events_urls
  export EJ_DIR EJ_NODE EJ_JWK_FILE EJ_TURNS_SERVICE EJ_LISTEN_IP
  lobby_render "$lobby_infra_dir/ejabberd/ejabberd.yml.tmpl" "$1"
}

# lobby_reload_ejabberd_config: a running ejabberd whose config would now differ (LOBBY_INSTANCES changed:
# mod_lobby_events' urls) gets the new one and reloads it (`ejabberdctl reload_config`: gen_mod stores a
# module's new options and calls its reload/3; mod_lobby_events reads its URLs at each post).
lobby_reload_ejabberd_config() {
  local conf="$EJ_DIR/conf/ejabberd.yml"
  lobby_render_ejabberd_config "$conf.new" || return 1
  if cmp -s "$conf.new" "$conf"; then
    rm -f "$conf.new"
    return 0
  fi
  chmod 600 "$conf.new"
  if lobby_is_root; then chown ejabberd:ejabberd "$conf.new"; fi
  mv "$conf.new" "$conf"
  lobby_ejctl reload_config
}

lobby_gen_ejabberd() {
  lobby_mkhome "$EJ_DIR/conf" "$EJ_DIR/spool" "$EJ_DIR/contrib" "$EJ_LOG_DIR"
  lobby_link_home "$LOBBY_RUN_DIR/ejabberd$EJ_PLACE_SUFFIX" "$EJ_DIR"
  lobby_link_home "$LOBBY_LOG_DIR/ejabberd$EJ_PLACE_SUFFIX" "$EJ_LOG_DIR"
  lobby_render_ejabberd_config "$EJ_DIR/conf/ejabberd.yml"
  export EJ_LISTEN_IP
  lobby_render "$lobby_infra_dir/ejabberd/ejabberdctl.cfg.tmpl" "$EJ_DIR/conf/ejabberdctl.cfg"
  printf '#!/bin/sh\nulimit -n "$(ulimit -Hn)" 2>/dev/null\nexec /usr/bin/erl "$@"\n' >"$EJ_DIR/erl"
  chmod 755 "$EJ_DIR/erl"
  lobby_build_ejabberd_modules
  # ejabberdctl reads ERL_INETRC from its config dir: resolve localhost and the other nodes' host parts
  # without DNS.
  cp "$lobby_infra_dir/ejabberd/inetrc" "$EJ_DIR/conf/inetrc"
  # The JWT key: a JWK of type oct whose k is base64url(XMPP_JWT_SECRET), i.e. the HMAC key is the
  # secret's bytes, exactly what the Lobby server signs with.
  local k
  k=$(printf '%s' "$XMPP_JWT_SECRET" | base64 -w0 | tr '+/' '-_' | tr -d '=')
  (umask 077 && printf '{"kty":"oct","k":"%s"}\n' "$k" >"$EJ_JWK_FILE")
  chmod 600 "$EJ_DIR/conf/ejabberd.yml" "$EJ_DIR/conf/ejabberdctl.cfg"
  # Mnesia's schema belongs to one node name: a spool made for another name (the dist port changed)
  # would stop the node from starting. The spool only holds rooms the server re-creates on demand.
  if [ -f "$EJ_DIR/spool/.lobby-node" ] && [ "$(cat "$EJ_DIR/spool/.lobby-node")" != "$EJ_NODE" ]; then
    rm -rf "$EJ_DIR/spool" && mkdir -p "$EJ_DIR/spool"
  fi
  echo "$EJ_NODE" >"$EJ_DIR/spool/.lobby-node"
  if lobby_is_root; then
    chown -R ejabberd:ejabberd "$EJ_DIR" "$EJ_LOG_DIR"
  else
    sed 's/^INSTALLUSER=ejabberd$/INSTALLUSER=/' /usr/sbin/ejabberdctl >"$EJ_DIR/ejabberdctl"
    chmod 755 "$EJ_DIR/ejabberdctl"
  fi
}

# Our own ejabberd modules (infra/ejabberd/modules/*.erl), compiled with the machine's erlc against
# Debian's ejabberd into $EJ_DIR/ebin, which ejabberdctl.cfg puts on the node's code path (-pa).
lobby_build_ejabberd_modules() {
  local src out ebin="$EJ_DIR/ebin" ej_ebin
  ej_ebin=$(dirname "$(find /usr/lib -name ejabberd_hooks.beam -path '*ejabberd*' 2>/dev/null | head -n1)")
  mkdir -p "$ebin"
  for src in "$lobby_infra_dir"/ejabberd/modules/*.erl; do
    out="$ebin/$(basename "$src" .erl).beam"
    if [ ! -f "$out" ] || [ "$src" -nt "$out" ]; then
      erlc -o "$ebin" -pa "$ej_ebin" -I "$ej_ebin/../include" "$src" || return 1
    fi
  done
}

# ------------------------------------------------------------------------------------------------ Janus
JANUS_DIR="$LOBBY_RUN_DIR/janus"

# jcfg_set FILE SED_EXPR EXPECTED: edit a pristine Janus file and prove the edit landed (a changed
# Debian default would otherwise silently give a config without our setting).
lobby_jcfg_set() {
  local file=$1 expr=$2 expected=$3
  sed -i "$expr" "$file"
  grep -qF -- "$expected" "$file" || {
    echo "lobby: could not set '$expected' in $file (is /etc/janus pristine? dpkg -V janus)" >&2
    return 1
  }
}

lobby_gen_janus() {
  local conf="$JANUS_DIR/conf" f
  rm -rf "$conf" && mkdir -p "$conf" "$LOBBY_LOG_DIR" "$LOBBY_DATA_DIR/recordings"
  for f in janus.jcfg janus.plugin.videoroom.jcfg janus.transport.websockets.jcfg janus.transport.http.jcfg; do
    cp "/etc/janus/$f" "$conf/$f"
  done
  local C="$conf/janus.jcfg" W="$conf/janus.transport.websockets.jcfg"
  local H="$conf/janus.transport.http.jcfg" V="$conf/janus.plugin.videoroom.jcfg"
  local tab=$'\t'
  # core: our config folder; only videoroom + websockets + http are loaded.
  lobby_jcfg_set "$C" "s#^\tconfigs_folder = \"/etc/janus\"#\tconfigs_folder = \"$conf\"#" "configs_folder = \"$conf\""
  lobby_jcfg_set "$C" 's#^\t\#disable = "libjanus_voicemail.so,libjanus_recordplay.so"#\tdisable = "libjanus_audiobridge.so,libjanus_duktape.so,libjanus_echotest.so,libjanus_lua.so,libjanus_nosip.so,libjanus_recordplay.so,libjanus_sip.so,libjanus_streaming.so,libjanus_textroom.so,libjanus_videocall.so,libjanus_voicemail.so"#' 'disable = "libjanus_audiobridge.so'
  lobby_jcfg_set "$C" 's#^\t\#disable = "libjanus_rabbitmq.so"#\tdisable = "libjanus_mqtt.so,libjanus_nanomsg.so,libjanus_pfunix.so,libjanus_rabbitmq.so"#' 'disable = "libjanus_mqtt.so'
  lobby_jcfg_set "$C" 's#^\t\#disable = "libjanus_jsonlog.so"#\tdisable = "libjanus_jsonlog.so"#' "${tab}disable = \"libjanus_jsonlog.so\""
  lobby_jcfg_set "$C" 's#^\t\#debug_timestamps = true#\tdebug_timestamps = true#' "${tab}debug_timestamps = true"
  lobby_jcfg_set "$C" 's#^\t\#debug_colors = false#\tdebug_colors = false#' "${tab}debug_colors = false"
  lobby_jcfg_set "$C" 's#^\t\#server_name = "MyJanusInstance"#\tserver_name = "Lobby"#' 'server_name = "Lobby"'
  # The admin API (loopback only) is for the Lobby server, with a secret of our own.
  lobby_jcfg_set "$C" "s#^\tadmin_secret = \"janusoverlord\"#\tadmin_secret = \"$JANUS_ADMIN_SECRET\"#" "admin_secret = \"$JANUS_ADMIN_SECRET\""
  # Only sessions the Lobby server vouched for: HMAC-signed tokens it mints per participant and call
  # (apps/server/src/services/media/janusTokens.ts); `info` does not list library versions.
  lobby_jcfg_set "$C" 's#^\t\#token_auth = true#\ttoken_auth = true#' "${tab}token_auth = true"
  lobby_jcfg_set "$C" "s#^\t\#token_auth_secret = \"janus\"#\ttoken_auth_secret = \"$JANUS_TOKEN_SECRET\"#" "token_auth_secret = \"$JANUS_TOKEN_SECRET\""
  lobby_jcfg_set "$C" 's#^\t\#hide_dependencies = true#\thide_dependencies = true#' "${tab}hide_dependencies = true"
  # A session outlives its transport for a while (docs/protocol.md "Session reclaim"): when the websocket
  # between a browser and Janus drops (the Janus gate or nginx restarted), the call's media keeps flowing
  # and janus.js claims the session on a new connection. 0 (Debian's default) destroys it at once.
  lobby_jcfg_set "$C" "s#^\t\#reclaim_session_timeout = 0#\treclaim_session_timeout = $JANUS_RECLAIM_SECONDS#" "${tab}reclaim_session_timeout = $JANUS_RECLAIM_SECONDS"
  # A session whose browser went silent (its network gone, its websocket still open) lives this long
  # (docs/protocol.md "ICE restart"): long enough for a minute-long outage to end in an ICE restart.
  lobby_jcfg_set "$C" "s#^\t\#session_timeout = 60#\tsession_timeout = $JANUS_SESSION_SECONDS#" "${tab}session_timeout = $JANUS_SESSION_SECONDS"
  if [ "${JANUS_EVENT_LOOPS:-0}" != 0 ]; then
    lobby_jcfg_set "$C" "s#^\t\#event_loops = 8#\tevent_loops = $JANUS_EVENT_LOOPS#" "${tab}event_loops = $JANUS_EVENT_LOOPS"
  fi
  # Janus trickles its own candidates (full trickle) instead of holding each offer and answer until its
  # gathering is done: that wait runs on the VideoRoom's one message thread, so every participant's
  # request queued behind it (a guest's `start` waited 130–200 ms on an answer's; docs/performance.md).
  # JANUS_FULL_TRICKLE=0 puts Debian's half trickle back.
  if [ "${JANUS_FULL_TRICKLE:-1}" = 1 ]; then
    lobby_jcfg_set "$C" 's#^\t\#full_trickle = true#\tfull_trickle = true#' "${tab}full_trickle = true"
  fi
  lobby_jcfg_set "$C" "s#^\t\#rtp_port_range = \"20000-40000\"#\trtp_port_range = \"$JANUS_RTP_RANGE\"#" "rtp_port_range = \"$JANUS_RTP_RANGE\""
  if [ "$LOBBY_LOOPBACK_ICE" = 1 ]; then
    # 127.0.0.1 as the only host candidate (needs lo_shim.so preloaded, see lobby_build_lo_shim);
    # `interface` is the address written in the SDP's o=/c= lines.
    lobby_jcfg_set "$C" 's#^\t\#ice_enforce_list = "eth0"#\tice_enforce_list = "127.0.0.1"#' "${tab}ice_enforce_list = \"127.0.0.1\""
    lobby_jcfg_set "$C" 's#^\t\#ignore_mdns = true#\tignore_mdns = true#' "${tab}ignore_mdns = true"
    lobby_jcfg_set "$C" 's#^\t\#interface = "1.2.3.4"#\tinterface = "127.0.0.1"#' "${tab}interface = \"127.0.0.1\""
  fi
  # A server with several addresses (coturn on its own one, docs/operations.md "TURN on 443"): Janus
  # gathers ICE candidates only on the interfaces or address prefixes of JANUS_ICE_ENFORCE_LIST.
  if [ "$LOBBY_LOOPBACK_ICE" != 1 ] && [ -n "${JANUS_ICE_ENFORCE_LIST:-}" ]; then
    lobby_jcfg_set "$C" "s#^\t\#ice_enforce_list = \"eth0\"#\tice_enforce_list = \"$JANUS_ICE_ENFORCE_LIST\"#" "${tab}ice_enforce_list = \"$JANUS_ICE_ENFORCE_LIST\""
  fi
  if [ -n "$JANUS_NAT_1_1_MAPPING" ]; then
    lobby_jcfg_set "$C" "s#^\t\#nat_1_1_mapping = \"1.2.3.4\"#\tnat_1_1_mapping = \"$JANUS_NAT_1_1_MAPPING\"#" "${tab}nat_1_1_mapping = \"$JANUS_NAT_1_1_MAPPING\""
  fi
  # websockets: plain ws on loopback only (the Lobby server proxies it).
  lobby_jcfg_set "$W" "s#^\tws_port = 8188#\tws_port = $JANUS_WS_PORT#" "${tab}ws_port = $JANUS_WS_PORT"
  lobby_jcfg_set "$W" 's#^\t\#ws_ip = "192.168.0.1"#\tws_ip = "127.0.0.1"#' "${tab}ws_ip = \"127.0.0.1\""
  lobby_jcfg_set "$W" 's#^\t\#ws_acl = "127.,192.168.0."#\tws_acl = "127."#' "${tab}ws_acl = \"127.\""
  # http: REST /janus and admin /admin, both on loopback only.
  lobby_jcfg_set "$H" "s#^\tport = 8088#\tport = $JANUS_HTTP_PORT#" "${tab}port = $JANUS_HTTP_PORT"
  lobby_jcfg_set "$H" 's#^\t\#ip = "192.168.0.1"#\tip = "127.0.0.1"#' "${tab}ip = \"127.0.0.1\""
  lobby_jcfg_set "$H" 's#^\t\#acl = "127.,192.168.0."#\tacl = "127."#' "${tab}acl = \"127.\""
  lobby_jcfg_set "$H" 's#^\tadmin_http = false#\tadmin_http = true#' "${tab}admin_http = true"
  lobby_jcfg_set "$H" "s#^\tadmin_port = 7088#\tadmin_port = $JANUS_ADMIN_PORT#" "${tab}admin_port = $JANUS_ADMIN_PORT"
  lobby_jcfg_set "$H" 's#^\t\#admin_ip = "192.168.0.1"#\tadmin_ip = "127.0.0.1"#' "${tab}admin_ip = \"127.0.0.1\""
  lobby_jcfg_set "$H" 's#^\t\#admin_acl = "127.,192.168.0."#\tadmin_acl = "127."#' "${tab}admin_acl = \"127.\""
  # videoroom: string room ids (a room is named after its call id); no demo rooms (rooms come from the
  # API; the numeric demo rooms would not even load with string ids).
  lobby_jcfg_set "$V" 's#^\t\#string_ids = true#\tstring_ids = true#' "${tab}string_ids = true"
  # Only the server (holder of the admin_key) creates rooms, and rtp_forward needs the key too.
  lobby_jcfg_set "$V" "s#^\t\#admin_key = \"supersecret\"#\tadmin_key = \"$JANUS_ROOM_ADMIN_KEY\"#" "admin_key = \"$JANUS_ROOM_ADMIN_KEY\""
  lobby_jcfg_set "$V" 's#^\t\#lock_rtp_forward = true#\tlock_rtp_forward = true#' "${tab}lock_rtp_forward = true"
  perl -0pi -e 's/\nroom-\d+: \{.*?\n\}\n/\n/gs' "$V"
  if grep -q '^room-' "$V"; then
    echo "lobby: demo rooms left in $V" >&2
    return 1
  fi
  # The admin secret, the token secret and the room admin key are in there.
  chmod 600 "$conf"/*.jcfg
  (cd "$conf" && for f in *.jcfg; do diff -u "/etc/janus/$f" "$f" || true; done) \
    | sed -e "s/$JANUS_ADMIN_SECRET/<JANUS_ADMIN_SECRET>/" -e "s/$JANUS_TOKEN_SECRET/<JANUS_TOKEN_SECRET>/" \
      -e "s/$JANUS_ROOM_ADMIN_KEY/<JANUS_ROOM_ADMIN_KEY>/" >"$JANUS_DIR/config.diff"
  if [ "$LOBBY_LOOPBACK_ICE" = 1 ]; then lobby_build_lo_shim; fi
}

# The getifaddrs() wrapper that lets Janus use 127.0.0.1 for ICE (Janus skips IFF_LOOPBACK interfaces
# whatever its config says). Rebuilt only when the source is newer.
lobby_build_lo_shim() {
  local src="$lobby_infra_dir/janus/lo_shim.c" out="$JANUS_DIR/lo_shim.so"
  mkdir -p "$JANUS_DIR"
  if [ ! -f "$out" ] || [ "$src" -nt "$out" ]; then
    gcc -shared -fPIC -O2 -o "$out.tmp" "$src" -ldl
    mv "$out.tmp" "$out"
  fi
}

# ----------------------------------------------------------------------------------------------- coturn
TURN_DIR="$LOBBY_RUN_DIR/coturn"

lobby_gen_coturn() {
  mkdir -p "$TURN_DIR" "$LOBBY_LOG_DIR"
  TURN_MIN_PORT=${TURN_RELAY_RANGE%-*}
  TURN_MAX_PORT=${TURN_RELAY_RANGE#*-}
  export TURN_DIR TURN_MIN_PORT TURN_MAX_PORT
  # LOBBY_TURN_CONFIG=production (docs/operations.md): the config that refuses relaying to loopback and
  # private ranges, with TURN over TLS; the default (test) config allows loopback, which a machine whose
  # only network is loopback needs (tests, CI).
  if [ "${LOBBY_TURN_CONFIG:-test}" = production ]; then
    [ -n "${TURN_LISTEN_IP:-}" ] || {
      echo "lobby: LOBBY_TURN_CONFIG=production needs TURN_LISTEN_IP (the address coturn listens and relays on)" >&2
      return 1
    }
    TURN_RELAY_IP=${TURN_RELAY_IP:-$TURN_LISTEN_IP}
    TURN_EXTERNAL_IP=${TURN_EXTERNAL_IP:-${JANUS_NAT_1_1_MAPPING:-$TURN_LISTEN_IP}}
    TURN_TLS_CERT=${TURN_TLS_CERT:-${LOBBY_TLS_CERT:-}}
    TURN_TLS_KEY=${TURN_TLS_KEY:-${LOBBY_TLS_KEY:-}}
    [ -n "$TURN_TLS_CERT" ] && [ -n "$TURN_TLS_KEY" ] || {
      echo "lobby: LOBBY_TURN_CONFIG=production needs TURN_TLS_CERT and TURN_TLS_KEY (or LOBBY_TLS_CERT and LOBBY_TLS_KEY)" >&2
      return 1
    }
    TURN_TLS_PORT=${TURN_TLS_PORT:-5349}
    # its PID file (Debian's place) and its log: beside the other servers' logs (docs/operations.md "Logs and
    # their rotation"); TURN_LOG_FILE=syslog sends it to the journal instead
    TURN_PID_FILE=${TURN_PID_FILE:-/run/turnserver/turnserver.pid}
    TURN_LOG_FILE=${TURN_LOG_FILE:-$LOBBY_LOG_DIR/coturn.log}
    TURN_ALLOWED_PEERS=
    if [ -n "${TURN_ALLOWED_PEER_IP:-}" ]; then TURN_ALLOWED_PEERS="allowed-peer-ip=$TURN_ALLOWED_PEER_IP"; fi
    export TURN_LISTEN_IP TURN_RELAY_IP TURN_EXTERNAL_IP TURN_TLS_CERT TURN_TLS_KEY TURN_TLS_PORT TURN_PID_FILE \
      TURN_LOG_FILE TURN_ALLOWED_PEERS
    (umask 077 && lobby_render "$lobby_infra_dir/coturn/turnserver.production.conf.tmpl" "$TURN_DIR/turnserver.conf")
  else
    (umask 077 && lobby_render "$lobby_infra_dir/coturn/turnserver.conf.tmpl" "$TURN_DIR/turnserver.conf")
  fi
}

# ------------------------------------------------------------------------------ PostgreSQL (tests only)
PG_DIR=$(lobby_home_for postgres "$LOBBY_RUN_DIR/pg")
# PostgreSQL's log is written by the server's own user: it lives in the cluster's folder, with a link
# in the log dir.
PG_LOG="$PG_DIR/postgres.log"
PG_DB=lobby_test
PG_USER=lobby

lobby_pg_bindir() {
  local d
  d=$(find /usr/lib/postgresql -maxdepth 3 -type f -name initdb -path '*/bin/*' 2>/dev/null | sort -V | tail -n1)
  [ -n "$d" ] || { echo "lobby: PostgreSQL's initdb not found (apt-get install -y postgresql)" >&2; return 1; }
  dirname "$d"
}

# Runs a PostgreSQL tool as the cluster's owner: initdb and postgres refuse to run as root.
lobby_pg_as_owner() {
  if lobby_is_root; then
    # from /, which postgres can enter whatever the checkout's folder (every path given is absolute)
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

lobby_pg_url() {
  echo "postgres://$PG_USER:$LOBBY_PG_PASSWORD@127.0.0.1:$PG_PORT/$PG_DB"
}

lobby_pg_running() {
  [ -f "$PG_DIR/data/postmaster.pid" ] && kill -0 "$(head -n1 "$PG_DIR/data/postmaster.pid")" 2>/dev/null
}

# Creates (once) and starts the tests' cluster: $LOBBY_RUN_DIR/pg on 127.0.0.1:$PG_PORT, database
# lobby_test owned by user lobby with password $LOBBY_PG_PASSWORD. Reuses a running one.
lobby_pg_start() {
  local bin
  bin=$(lobby_pg_bindir)
  if lobby_pg_running; then
    echo "postgres: already running (pid $(head -n1 "$PG_DIR/data/postmaster.pid"))"
    return 0
  fi
  lobby_port_free "$PG_PORT" postgres || return 1
  lobby_mkhome "$PG_DIR/socket" "$LOBBY_LOG_DIR"
  lobby_link_home "$LOBBY_RUN_DIR/pg" "$PG_DIR"
  if lobby_is_root; then chown postgres:postgres "$PG_DIR" "$PG_DIR/socket"; fi
  if [ ! -f "$PG_DIR/data/PG_VERSION" ]; then
    rm -rf "$PG_DIR/data"
    local pwfile="$PG_DIR/pwfile"
    (umask 077 && printf '%s\n' "$LOBBY_PG_PASSWORD" >"$pwfile")
    if lobby_is_root; then chown postgres:postgres "$pwfile"; fi
    # The superuser is `postgres` (local socket, peer/trust); the app user is created below.
    lobby_pg_as_owner "$bin/initdb" -D "$PG_DIR/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
      --encoding=UTF8 --locale=C.UTF-8 >"$LOBBY_LOG_DIR/pg-initdb.log" 2>&1 || {
      cat "$LOBBY_LOG_DIR/pg-initdb.log" >&2
      return 1
    }
    rm -f "$pwfile"
    lobby_render "$lobby_infra_dir/postgres/postgresql.conf.tmpl" "$PG_DIR/lobby.conf"
    echo "include '$PG_DIR/lobby.conf'" >>"$PG_DIR/data/postgresql.conf"
    if lobby_is_root; then chown postgres:postgres "$PG_DIR/lobby.conf"; fi
    local fresh=1
  else
    export PG_DIR
    lobby_render "$lobby_infra_dir/postgres/postgresql.conf.tmpl" "$PG_DIR/lobby.conf"
    if lobby_is_root; then chown postgres:postgres "$PG_DIR/lobby.conf"; fi
  fi
  : >"$PG_LOG"
  if lobby_is_root; then chown postgres:postgres "$PG_LOG"; fi
  ln -sfn "$PG_LOG" "$LOBBY_LOG_DIR/postgres.log"
  lobby_pg_as_owner "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_LOG" -w -t 60 start >/dev/null || {
    tail -n 30 "$PG_LOG" >&2
    return 1
  }
  if [ "${fresh:-0}" = 1 ]; then
    # The password goes through psql's variable quoting, never through a shell-built SQL string.
    lobby_pg_as_owner "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR/socket" -p "$PG_PORT" -U postgres -d postgres \
      -v pw="$LOBBY_PG_PASSWORD" <<SQL
CREATE ROLE $PG_USER LOGIN PASSWORD :'pw';
CREATE DATABASE $PG_DB OWNER $PG_USER;
SQL
  fi
  echo "postgres: running on 127.0.0.1:$PG_PORT (pid $(head -n1 "$PG_DIR/data/postmaster.pid")), log $PG_LOG"
}

lobby_pg_stop() {
  local bin
  bin=$(lobby_pg_bindir) || return 0
  if lobby_pg_running; then
    lobby_pg_as_owner "$bin/pg_ctl" -D "$PG_DIR/data" -m fast -w -t 60 stop >/dev/null
    echo "postgres: stopped"
  fi
}

# Stops the cluster and removes it (the tests start from an empty database every run).
lobby_pg_destroy() {
  lobby_pg_stop
  rm -rf "$PG_DIR"
  [ -L "$LOBBY_RUN_DIR/pg" ] && rm -f "$LOBBY_RUN_DIR/pg"
  return 0
}

# ------------------------------------------------------------------------------------------------ TLS
TLS_DIR="$LOBBY_RUN_DIR/tls"

# lobby_gen_tls: the certificate nginx serves. The operator's LOBBY_TLS_CERT and LOBBY_TLS_KEY when set
# (a real certificate, e.g. from Let's Encrypt: docs/operations.md); otherwise a local CA made once per
# run dir ($TLS_DIR/ca.pem, which a browser or curl can be told to trust) and a certificate it signs
# for localhost and 127.0.0.1 (and LOBBY_TLS_NAMES, comma-separated DNS names, if set).
lobby_gen_tls() {
  if [ -n "${LOBBY_TLS_CERT:-}" ] || [ -n "${LOBBY_TLS_KEY:-}" ]; then
    [ -r "${LOBBY_TLS_CERT:-}" ] && [ -r "${LOBBY_TLS_KEY:-}" ] || {
      echo "lobby: LOBBY_TLS_CERT and LOBBY_TLS_KEY must both name readable files" >&2
      return 1
    }
    return 0
  fi
  mkdir -p "$TLS_DIR"
  if [ ! -f "$TLS_DIR/server.pem" ] || [ ! -f "$TLS_DIR/ca.pem" ]; then
    local san="DNS:localhost,IP:127.0.0.1" name
    local names=${LOBBY_TLS_NAMES:-}
    for name in ${names//,/ }; do san="$san,DNS:$name"; done
    (
      umask 077
      cd "$TLS_DIR"
      openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.pem \
        -days 3650 -subj "/CN=Lobby development CA ($(hostname))" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
      openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout server.key -out server.csr \
        -subj "/CN=localhost" 2>/dev/null
      printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n' "$san" >server.ext
      openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 825 \
        -extfile server.ext 2>/dev/null
      chmod 644 ca.pem server.pem
    ) || {
      echo "lobby: could not make the development certificate in $TLS_DIR" >&2
      return 1
    }
  fi
  LOBBY_TLS_CERT="$TLS_DIR/server.pem"
  LOBBY_TLS_KEY="$TLS_DIR/server.key"
  export LOBBY_TLS_CERT LOBBY_TLS_KEY
}

# ---------------------------------------------------------------------------------------------- nginx
# nginx's workers run as www-data when started by root: their folder (temp files, the apps' assets)
# must be one that user can reach, whatever the checkout's path.
NGINX_DIR=$(lobby_home_for www-data "$LOBBY_RUN_DIR/nginx")
NGINX_WWW="$NGINX_DIR/www"
NGINX_BROTLI_MODULES=(/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so
  /usr/lib/nginx/modules/ngx_http_brotli_static_module.so)

# lobby_sync_www: the built apps' hashed assets into nginx's folder, precompressed. New files are added
# and old ones kept, so a page loaded before a rebuild still finds its scripts.
lobby_sync_www() {
  local app src dst f
  for app in guest console; do
    src="$lobby_root/apps/$app/dist/assets"
    dst="$NGINX_WWW/$app/assets"
    mkdir -p "$dst"
    [ -d "$src" ] || continue
    cp -r "$src/." "$dst/"
    for f in "$dst"/*; do
      case "$f" in *.js | *.css | *.svg | *.json | *.mjs) ;; *) continue ;; esac
      [ -f "$f.gz" ] || gzip -k -9 "$f"
      if command -v brotli >/dev/null && [ ! -f "$f.br" ]; then brotli -k -q 11 "$f"; fi
    done
  done
  chmod -R a+rX "$NGINX_WWW"
}

lobby_gen_nginx() {
  lobby_mkhome "$NGINX_DIR/tmp"
  lobby_link_home "$LOBBY_RUN_DIR/nginx" "$NGINX_DIR"
  lobby_gen_tls
  lobby_sync_www
  NGINX_USER_LINE=
  NGINX_MODULES=
  NGINX_BROTLI=
  if lobby_is_root; then
    NGINX_USER_LINE="user www-data;"
    chown -R www-data: "$NGINX_DIR/tmp"
  fi
  if [ -f "${NGINX_BROTLI_MODULES[0]}" ] && [ -f "${NGINX_BROTLI_MODULES[1]}" ]; then
    NGINX_MODULES="load_module ${NGINX_BROTLI_MODULES[0]};
load_module ${NGINX_BROTLI_MODULES[1]};"
    NGINX_BROTLI="  brotli on;
  brotli_static on;
  brotli_comp_level 5;
  brotli_types text/css application/javascript text/javascript application/json image/svg+xml text/plain text/csv;"
  fi
  # Every waiting guest holds a websocket through nginx, i.e. two connections and two descriptors of one
  # worker (guest and ejabberd sides): a worker takes as many descriptors as the hard limit allows (the
  # soft one is often 1,024) and as many connections (10,000 waiting guests need 20,000).
  NGINX_NOFILE=$(ulimit -Hn)
  case "$NGINX_NOFILE" in '' | unlimited) NGINX_NOFILE=1048576 ;; esac
  [ "$NGINX_NOFILE" -gt 1048576 ] && NGINX_NOFILE=1048576
  NGINX_WORKER_CONNECTIONS=$((NGINX_NOFILE > 32768 ? 32768 : NGINX_NOFILE))
  # HTTP to HTTPS (docs/operations.md "HTTP and HTTPS"); a redirect to 443 names no port.
  case "$LOBBY_HTTPS_REDIRECT" in 0 | 1) ;; *)
    echo "lobby: LOBBY_HTTPS_REDIRECT must be 0 or 1, not '$LOBBY_HTTPS_REDIRECT'" >&2
    return 1
    ;;
  esac
  NGINX_HTTPS_PORT_SUFFIX=
  [ "$HTTPS_PORT" = 443 ] || NGINX_HTTPS_PORT_SUFFIX=":$HTTPS_PORT"
  : "${LOBBY_ACME_DIR:=$NGINX_DIR/acme}"
  lobby_mkhome "$LOBBY_ACME_DIR/.well-known/acme-challenge"
  chmod -R a+rX "$LOBBY_ACME_DIR"
  lobby_nginx_upstreams
  lobby_nginx_gate_servers
  lobby_nginx_xmpp_upstreams
  export NGINX_DIR NGINX_WWW NGINX_USER_LINE NGINX_MODULES NGINX_BROTLI NGINX_NOFILE NGINX_WORKER_CONNECTIONS \
    NGINX_HTTPS_PORT_SUFFIX LOBBY_ACME_DIR LOBBY_HTTPS_REDIRECT
  lobby_render "$lobby_infra_dir/nginx/nginx.conf.tmpl" "$NGINX_DIR/nginx.conf"
}
