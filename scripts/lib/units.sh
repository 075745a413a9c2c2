# shellcheck shell=bash
# Sourced by scripts/configure after scripts/lib/stack.sh: the units of infra/systemd, and the system user
# the Lobby server, the Janus gate and Janus run as under them (User=$LOBBY_USER, ProtectSystem=strict,
# only their folders writable; docs/operations.md "Users and folders"). Creating the user and giving it
# its folders needs root; for anyone else they do nothing (the units still render).
: "${LOBBY_USER:=lobby}"
export LOBBY_USER

# lobby_ensure_user: creates the system user and its group once (no login, no home).
lobby_ensure_user() {
  [ "$(id -u)" = 0 ] || return 0
  id -u "$LOBBY_USER" >/dev/null 2>&1 && return 0
  useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin \
    --comment "Lobby server, Janus gate and Janus" "$LOBBY_USER"
  echo "user $LOBBY_USER created"
}

# lobby_give_folders: what those three write belongs to the user: the data dir (the SQLite database,
# uploads, recordings: Janus writes a call's .mjr files, the server mixes and deletes them), Janus's
# log, and Janus's configs (they hold its secrets: readable by the user only).
lobby_give_folders() {
  [ "$(id -u)" = 0 ] || return 0
  mkdir -p "$LOBBY_DATA_DIR/recordings" "$LOBBY_LOG_DIR"
  chown -R "$LOBBY_USER:" "$LOBBY_DATA_DIR"
  chmod 750 "$LOBBY_DATA_DIR"
  touch "$LOBBY_LOG_DIR/janus.log"
  chown "$LOBBY_USER:" "$LOBBY_LOG_DIR/janus.log"
  chown -R "$LOBBY_USER:" "$JANUS_DIR/conf"
}

# The sandbox of the units that run as $LOBBY_USER (@@LOBBY_SANDBOX@@ in infra/systemd): the whole file
# system read-only but each unit's ReadWritePaths, no privileges to gain, no devices, kernel or other
# users' homes. Not MemoryDenyWriteExecute: V8, Node's JIT, writes executable memory.
LOBBY_SANDBOX="User=$LOBBY_USER
Group=$LOBBY_USER
NoNewPrivileges=true
ProtectSystem=strict
ProtectHome=read-only
PrivateTmp=true
PrivateDevices=true
ProtectKernelTunables=true
ProtectKernelModules=true
ProtectKernelLogs=true
ProtectControlGroups=true
ProtectClock=true
ProtectHostname=true
RestrictSUIDSGID=true
RestrictNamespaces=true
RestrictRealtime=true
LockPersonality=true
CapabilityBoundingSet=
AmbientCapabilities=
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK
SystemCallArchitectures=native"
export LOBBY_SANDBOX

# lobby_render_units DIR: every unit of infra/systemd, rendered for this machine into DIR.
lobby_render_units() {
  local dir=$1 tmpl
  mkdir -p "$dir"
  LOBBY_ROOT=$lobby_root
  LOBBY_NODE=$(command -v node)
  export LOBBY_ROOT LOBBY_NODE TURN_DIR JANUS_DIR EJ_DIR EJ_LOG_DIR NGINX_DIR
  for tmpl in "$lobby_root"/infra/systemd/*.service.tmpl; do
    lobby_render "$tmpl" "$dir/$(basename "$tmpl" .tmpl)"
  done
  cp "$lobby_root/infra/systemd/lobby.target" "$dir/"
  lobby_render_server_instances "$dir" || return 1
  lobby_render_gate_instances "$dir"
}

# lobby_render_server_instances DIR: with LOBBY_INSTANCES=N > 1 (PostgreSQL only: scripts/lib/instances.sh),
# lobby-server-2 … lobby-server-N beside lobby-server (instance 1), each a copy of it with a second
# environment file (systemd: a later EnvironmentFile overrides an earlier one) that gives its port, name
# and data folder, writable besides instance 1's recordings; lobby.target wants them all
# (docs/operations.md "Scaling").
lobby_render_server_instances() {
  local dir=$1 i unit env recordings=${LOBBY_RECORDINGS_DIR:-$LOBBY_DATA_DIR/recordings}
  rm -f "$dir"/lobby-server-[0-9]*.service
  [ "$LOBBY_INSTANCES" -gt 1 ] || return 0
  lobby_instances_check || return 1
  for ((i = 2; i <= LOBBY_INSTANCES; i++)); do
    unit="$dir/lobby-server-$i.service"
    env="$LOBBY_RUN_DIR/lobby-server-$i.env"
    (umask 077 && printf 'PORT=%s\nLOBBY_INSTANCE=%s\nLOBBY_DATA_DIR=%s\nLOBBY_RECORDINGS_DIR=%s\n' \
      "$(lobby_instance_port "$i")" "$i" "$(lobby_instance_data_dir "$i")" "$recordings" >"$env")
    sed -e "s|^Description=.*|Description=Lobby server (API), instance $i|" \
      -e "s|^EnvironmentFile=.*|&\nEnvironmentFile=$env|" \
      -e "s|^ReadWritePaths=.*|ReadWritePaths=$(lobby_instance_data_dir "$i") $recordings|" \
      "$dir/lobby-server.service" >"$unit"
    sed -i "s|^\(Wants=.*lobby-server\.service\)|\1 lobby-server-$i.service|" "$dir/lobby.target"
    if [ "$(id -u)" = 0 ] && id -u "$LOBBY_USER" >/dev/null 2>&1; then
      mkdir -p "$(lobby_instance_data_dir "$i")"
      chown "$LOBBY_USER:" "$(lobby_instance_data_dir "$i")"
      chmod 750 "$(lobby_instance_data_dir "$i")"
    fi
  done
}

# lobby_render_gate_instances DIR: with LOBBY_JANUS_GATES=N > 1 (scripts/lib/gates.sh), lobby-janus-gate-2 …
# lobby-janus-gate-N beside lobby-janus-gate (gate 1), each a copy of it with a second environment file that
# gives its port and number; nginx's upstream lists them all and lobby.target wants them all
# (docs/operations.md "Several Janus gates").
lobby_render_gate_instances() {
  local dir=$1 i unit env
  rm -f "$dir"/lobby-janus-gate-[0-9]*.service
  lobby_gates_check || return 1
  for ((i = 2; i <= LOBBY_JANUS_GATES; i++)); do
    unit="$dir/lobby-janus-gate-$i.service"
    env="$LOBBY_RUN_DIR/lobby-janus-gate-$i.env"
    (umask 077 && printf 'JANUS_GATE_PORT=%s\nLOBBY_GATE=%s\n' "$(lobby_gate_port "$i")" "$i" >"$env")
    sed -e "1s|127\.0\.0\.1:[0-9]*|127.0.0.1:$(lobby_gate_port "$i")|" -e "s|^Description=.*|Description=Lobby Janus gate $i|" \
      -e "s|^EnvironmentFile=.*|&\nEnvironmentFile=$env|" \
      "$dir/lobby-janus-gate.service" >"$unit"
    sed -i "s|^\(Wants=.*lobby-janus-gate\.service\)|\1 lobby-janus-gate-$i.service|" "$dir/lobby.target"
  done
}
