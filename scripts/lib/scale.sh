# shellcheck shell=bash
# The `scale` stage of scripts/test (docs/operations.md "Scaling"): two Lobby server instances side by
# side on the tests' PostgreSQL, each with its own data folder, behind the stack's nginx with the front
# doors (scripts/lib/instances.sh: PORT+5 prefers instance 1, PORT+6 instance 2), then the journeys of
# e2e/scale (npx playwright test -c e2e/playwright.scale.config.ts). Sourced by scripts/test, which
# defines journeys_server_env and playwright_args; Janus and coturn are the stack's own (reused when the
# `stack` stage started them), with a second Janus node beside the first (LOBBY_JANUS_LOCAL_NODES=2,
# scripts/lib/stack.sh): each call's room is placed on one of the two (e2e/scale/janus-nodes.spec.ts);
# ejabberd is a cluster of two nodes, the stack's own and a second one joined to it
# (scripts/lib/ejabberd-cluster.sh), with an XMPP door per node (PORT+3, PORT+4); and two Janus gates
# behind nginx's /janus and /janus-http (LOBBY_JANUS_GATES=2, scripts/lib/gates.sh: e2e/scale/janus-gates.spec.ts).
scale_stage() {
  # the loopback stack's server and gate run on SQLite: they make way for the instances on PostgreSQL
  stop_server >/dev/null
  stop_gate >/dev/null
  lobby_pg_destroy >/dev/null
  lobby_pg_start
  DATABASE_URL=$(lobby_pg_url)
  LOBBY_INSTANCES=2
  LOBBY_FRONT_DOORS=1
  LOBBY_DATA_DIR="$LOBBY_RUN_DIR/scale/data"
  LOBBY_JANUS_LOCAL_NODES=2
  LOBBY_EJABBERD_NODES=2
  LOBBY_JANUS_GATES=2
  EJABBERD_API_URL=$(lobby_ejabberd_api_urls)
  export DATABASE_URL LOBBY_INSTANCES LOBBY_FRONT_DOORS LOBBY_DATA_DIR LOBBY_JANUS_LOCAL_NODES LOBBY_EJABBERD_NODES LOBBY_JANUS_GATES EJABBERD_API_URL
  journeys_server_env
  start_infra
  start_server
  start_gate
  # started, or (after the `stack` stage) its config generated again with both instances and reloaded
  start_nginx
  LOBBY_BASE_URL="http://127.0.0.1:$PORT" LOBBY_CHROMIUM=/usr/bin/chromium PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 CI="${CI:-1}" \
    npx playwright test -c e2e/playwright.scale.config.ts "${playwright_args[@]}"
}
