# shellcheck shell=bash
# Sourced by scripts/test before anything else (needs $lobby_root): the environment of the tests' own
# stack. Nothing of the machine it runs on may change it: not an outer environment's URLs and secrets
# (dropped below, derived again for these ports), nor a deployment's /etc/lobby/lobby.conf (LOBBY_CONF=none:
# the configure check of scripts/test would otherwise read it, and its folders, ports and DATABASE_URL
# would override the test's own; test/test-env.test.ts plants one).
# The tests' stack runs beside a dev stack (./scripts/start): its own run dir, data dir, ports and
# secrets. Set before env.sh, which keeps values already set; derived URLs and secrets from an outer
# environment are dropped so that they are derived again for these ports and this run dir.
declare -A test_env=(
  [PORT]=8090 [HTTPS_PORT]=8453 [LOBBY_API_PORT]=8091 [JANUS_GATE_PORT]=8092 [EJABBERD_WS_PORT]=5290 [EJABBERD_API_PORT]=5291 [EJABBERD_DIST_PORT]=5292
  [JANUS_WS_PORT]=8198 [JANUS_HTTP_PORT]=8098 [JANUS_ADMIN_PORT]=7098 [JANUS_RTP_RANGE]=10200-10399
  # the scale stage's second Janus node (its other ports: the first's + 1): above every slot's first range
  [JANUS2_RTP_RANGE]=12200-12299
  [TURN_PORT]=3488 [TURN_RELAY_RANGE]=49260-49359 [PG_PORT]=5433
)
# LOBBY_TEST_SLOT=N (0-9) shifts every port and the run dir, so that several engineers (or helper
# sessions) can each run the journeys on their own stack on one machine at the same time.
slot=${LOBBY_TEST_SLOT:-0}
[[ "$slot" =~ ^[0-9]$ ]] || { echo "LOBBY_TEST_SLOT must be 0-9" >&2; exit 2; }
if [ "$slot" != 0 ]; then
  for var in PORT HTTPS_PORT LOBBY_API_PORT JANUS_GATE_PORT EJABBERD_WS_PORT EJABBERD_API_PORT EJABBERD_DIST_PORT JANUS_WS_PORT JANUS_HTTP_PORT \
    JANUS_ADMIN_PORT TURN_PORT; do
    test_env[$var]=$((test_env[$var] + slot * 10))
  done
  test_env[PG_PORT]=$((test_env[PG_PORT] + slot))
  test_env[JANUS_RTP_RANGE]="$((10200 + slot * 200))-$((10399 + slot * 200))"
  test_env[JANUS2_RTP_RANGE]="$((12200 + slot * 100))-$((12299 + slot * 100))"
  test_env[TURN_RELAY_RANGE]="$((49260 + slot * 100))-$((49359 + slot * 100))"
fi
for var in "${!test_env[@]}"; do
  override="LOBBY_TEST_$var"
  export "$var=${!override:-${test_env[$var]}}"
done
default_run_dir="$lobby_root/.run/test"
[ "$slot" != 0 ] && default_run_dir="$lobby_root/.run/test-$slot"
export LOBBY_RUN_DIR="${LOBBY_TEST_RUN_DIR:-$default_run_dir}"
export LOBBY_DATA_DIR="$LOBBY_RUN_DIR/data"
unset LOBBY_JANUS_NODES LOBBY_JANUS_LOCAL_NODES LOBBY_JANUS_GATES LOBBY_LOG_DIR EJABBERD_API_URL EJABBERD_WS_URL JANUS_WS_URL JANUS_HTTP_URL JANUS_ADMIN_URL \
  XMPP_JWT_SECRET TURN_SECRET API_TOKEN_SECRET SESSION_SECRET JANUS_ADMIN_SECRET EJABBERD_EVENTS_SECRET JANUS_TOKEN_SECRET \
  JANUS_ROOM_ADMIN_KEY EJABBERD_COOKIE \
  LOBBY_PG_PASSWORD DEMO_AGENT_PASSWORD DEMO_ADMIN_PASSWORD DATABASE_URL LOBBY_TEST_PG_URL
export HOST=127.0.0.1
export LOBBY_CONF=none
# Port 80 serves the apps over plain HTTP on loopback: the journeys load http://127.0.0.1:$PORT
# (docs/operations.md "HTTP and HTTPS").
export LOBBY_HTTPS_REDIRECT=0
