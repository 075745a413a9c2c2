# shellcheck shell=bash
# Sourced by scripts/configure: a deployment's settings file (docs/operations.md "Configure"), KEY=VALUE
# lines, exported, each overriding the environment.
#   LOBBY_CONF unset     /etc/lobby/lobby.conf when it exists
#   LOBBY_CONF=FILE      that file (it must exist)
#   LOBBY_CONF=none      no file at all: what scripts/test sets, so that a machine's own /etc/lobby can
#                        never move the test stack's folders, ports or database (scripts/lib/test-env.sh)
lobby_load_conf() {
  local file=${LOBBY_CONF:-/etc/lobby/lobby.conf}
  [ "$file" = none ] && return 0
  if [ ! -f "$file" ]; then
    # the default file is optional; one named on purpose is not
    [ -z "${LOBBY_CONF:-}" ] && return 0
    echo "lobby: LOBBY_CONF=$file does not exist" >&2
    return 1
  fi
  set -a
  # shellcheck disable=SC1090
  . "$file"
  set +a
}
