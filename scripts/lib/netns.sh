# shellcheck shell=bash
# The real-network test bed of ./scripts/test's e2e-network stage (docs/operations.md "What the network
# tests prove"): network namespaces joined by veth pairs, with only documentation addresses (RFC 5737)
# and no link to the host's own interfaces, so no packet can leave the machine.
#
#   guest 192.0.2.2 ── 192.0.2.1 [nat] 203.0.113.2 ──┐            ┌── 198.51.100.10 [pub] nginx, Janus, ejabberd,
#   (a home behind a NAT router: masquerade, and     ├─ [inet] ──┤   198.51.100.11       the Lobby server
#    the guest's firewall of each journey)           │   router   │                      coturn
#   agent 203.0.113.66 ──────────────────────────────┘   1:1 NAT: 203.0.113.200 ⇄ 198.51.100.10
#                                                                 203.0.113.201 ⇄ 198.51.100.11
#
# The public namespace is a cloud server behind its provider's 1:1 NAT, as docs/operations.md describes
# production: its interface has private addresses, the internet reaches it at public ones, so Janus needs
# JANUS_NAT_1_1_MAPPING and coturn TURN_EXTERNAL_IP to announce addresses a browser can reach. The second
# address is coturn's own, so that it can take TCP 443 (TURN over TLS) beside nginx's 443.
#
# Usage (root): bash scripts/lib/netns.sh up|down|policy MODE|cut on|off|shape RATE|unshape|shaped-bytes|nat-count|drop-count
# Namespaces are named lobby<slot>-<role> (LOBBY_TEST_SLOT) so parallel runs never meet.
set -euo pipefail

NET_SLOT=${LOBBY_TEST_SLOT:-0}
NET_PREFIX="lobby${NET_SLOT}"
NS_PUB="$NET_PREFIX-pub"
NS_INET="$NET_PREFIX-inet"
NS_NAT="$NET_PREFIX-nat"
NS_GUEST="$NET_PREFIX-guest"
NS_AGENT="$NET_PREFIX-agent"
NET_ALL=("$NS_GUEST" "$NS_AGENT" "$NS_NAT" "$NS_PUB" "$NS_INET")

# the addresses, also read by the tests (e2e/network/support/net.ts) through the environment
NET_WEB_PRIVATE=198.51.100.10
NET_TURN_PRIVATE=198.51.100.11
NET_WEB_PUBLIC=203.0.113.200
NET_TURN_PUBLIC=203.0.113.201
NET_NAT_WAN=203.0.113.2
NET_GUEST=192.0.2.2
NET_AGENT=203.0.113.66

nsx() {
  local ns=$1
  shift
  ip netns exec "$ns" "$@"
}

# link NS_A IF_A ADDR_A NS_B IF_B ADDR_B: a veth pair made directly between two namespaces (never in
# the host's own namespace).
net_link() {
  ip -n "$1" link add "$2" type veth peer name "$5" netns "$4"
  ip -n "$1" addr add "$3" dev "$2"
  ip -n "$4" addr add "$6" dev "$5"
  ip -n "$1" link set "$2" up
  ip -n "$4" link set "$5" up
}

net_up() {
  net_down quiet
  local ns
  for ns in "${NET_ALL[@]}"; do
    ip netns add "$ns"
    ip -n "$ns" link set lo up
  done
  net_link "$NS_INET" pub 198.51.100.1/24 "$NS_PUB" eth0 "$NET_WEB_PRIVATE/24"
  ip -n "$NS_PUB" addr add "$NET_TURN_PRIVATE/24" dev eth0
  net_link "$NS_INET" nat 203.0.113.1/26 "$NS_NAT" wan "$NET_NAT_WAN/26"
  net_link "$NS_INET" agent 203.0.113.65/26 "$NS_AGENT" eth0 "$NET_AGENT/26"
  net_link "$NS_NAT" lan 192.0.2.1/24 "$NS_GUEST" eth0 "$NET_GUEST/24"
  ip -n "$NS_PUB" route add default via 198.51.100.1
  ip -n "$NS_NAT" route add default via 203.0.113.1
  ip -n "$NS_AGENT" route add default via 203.0.113.65
  ip -n "$NS_GUEST" route add default via 192.0.2.1
  for ns in "$NS_INET" "$NS_NAT"; do
    nsx "$ns" sysctl -qw net.ipv4.ip_forward=1
    # the 1:1 NAT sends the server's traffic to its own public address back out the interface it came
    # from (hairpin): a redirect would teach the server a shortcut that skips the NAT
    nsx "$ns" sysctl -qw net.ipv4.conf.all.send_redirects=0 net.ipv4.conf.default.send_redirects=0
  done
  nsx "$NS_PUB" sysctl -qw net.ipv4.conf.all.accept_redirects=0 net.ipv4.conf.eth0.accept_redirects=0
  # The provider's 1:1 NAT: the public addresses map to the private ones both ways, statelessly and
  # keeping every port, as a cloud's does (a conntrack NAT would change a port when Janus and a browser
  # send their first ICE checks at the same moment, which no cloud does). The private range itself is
  # not reachable from the internet. Traffic from the server to its own public addresses (coturn
  # relaying to Janus) comes back translated both ways (hairpin).
  nsx "$NS_INET" nft -f - <<NFT
table ip lobby {
  chain prerouting {
    type filter hook prerouting priority raw; policy accept;
    iifname != "pub" ip daddr 198.51.100.0/24 drop
    ip daddr $NET_WEB_PUBLIC ip daddr set $NET_WEB_PRIVATE notrack
    ip daddr $NET_TURN_PUBLIC ip daddr set $NET_TURN_PRIVATE notrack
    ip saddr $NET_WEB_PRIVATE ip saddr set $NET_WEB_PUBLIC notrack
    ip saddr $NET_TURN_PRIVATE ip saddr set $NET_TURN_PUBLIC notrack
  }
}
NFT
  # The guest's home router: masquerade (a NAT with one public address), the chain `guest` that
  # each journey fills with the guest's firewall (net_policy), and the chain `cut` that takes the
  # guest's network away in both directions (net_cut).
  nsx "$NS_NAT" nft -f - <<'NFT'
table ip lobby {
  chain postrouting {
    type nat hook postrouting priority srcnat;
    oifname "wan" ip saddr 192.0.2.0/24 meta l4proto udp counter masquerade
    oifname "wan" ip saddr 192.0.2.0/24 masquerade
  }
  chain guest {
  }
  chain cut {
  }
  chain forward {
    type filter hook forward priority filter; policy accept;
    jump cut
    iifname "lan" jump guest
  }
}
NFT
  # never a route to anything but these namespaces: no interface of the host is in any of them
  for ns in "${NET_ALL[@]}"; do
    if ip -n "$ns" -o link show | grep -v ' lo:' | grep -qv "link/ether.*link-netns $NET_PREFIX-"; then
      echo "netns: $ns has an interface that is not one of the test bed's veth pairs" >&2
      return 1
    fi
  done
  echo "netns: up (${NET_ALL[*]})"
}

# net_policy open|no-udp|tcp443-only: what the guest's router lets out of its LAN.
net_policy() {
  local rules
  case "$1" in
    open) rules= ;;
    no-udp) rules='meta l4proto udp counter drop' ;;
    tcp443-only) rules=$'tcp dport 443 accept\ncounter drop' ;;
    *)
      echo "netns: unknown policy $1" >&2
      return 2
      ;;
  esac
  nsx "$NS_NAT" nft flush chain ip lobby guest
  if [ -n "$rules" ]; then
    printf 'add rule ip lobby guest %s\n' "${rules//$'\n'/$'\nadd rule ip lobby guest '}" | nsx "$NS_NAT" nft -f -
  fi
}

# net_cut on|off: the guest's network gone (every packet to or from it dropped at its router, as when a
# home's line or a phone's signal drops: nothing tells either end), or back. Existing TCP connections
# and NAT mappings survive as they would; only time passes for them.
net_cut() {
  nsx "$NS_NAT" nft flush chain ip lobby cut
  case "$1" in
    on)
      printf 'add rule ip lobby cut iifname "lan" counter drop\nadd rule ip lobby cut oifname "lan" counter drop\n' |
        nsx "$NS_NAT" nft -f -
      ;;
    off) ;;
    *)
      echo "netns: cut on|off, not $1" >&2
      return 2
      ;;
  esac
}

# Packets the cut dropped so far (both directions): proof that the guest's traffic was really stopped.
net_cut_count() {
  nsx "$NS_NAT" nft list chain ip lobby cut | sed -n 's/.*counter packets \([0-9]*\).*/\1/p' | awk '{ n += $1 } END { print n + 0 }'
}

# net_shape RATE: the guest's line in both directions (its own egress, and the router's towards it).
net_shape() {
  nsx "$NS_GUEST" tc qdisc replace dev eth0 root tbf rate "$1" burst 4kb latency 300ms
  nsx "$NS_NAT" tc qdisc replace dev lan root tbf rate "$1" burst 4kb latency 300ms
}

# net_loss PERCENT: the guest's router drops that share of what the guest sends, at random (nft numgen),
# as a lossy uplink does; 0 takes it away. It shares the guest chain with net_policy (a journey uses one).
net_loss() {
  case "$1" in
    '' | *[!0-9]*)
      echo "netns: loss PERCENT (0-100), not $1" >&2
      return 2
      ;;
  esac
  nsx "$NS_NAT" nft flush chain ip lobby guest
  if [ "$1" -gt 0 ]; then
    printf 'add rule ip lobby guest numgen random mod 100 < %s counter drop\n' "$1" | nsx "$NS_NAT" nft -f -
  fi
}

# Bytes sent through the tbf queues: "UP DOWN" (the guest's egress, the router's towards the guest).
net_shaped_bytes() {
  local up down
  up=$(nsx "$NS_GUEST" tc -s qdisc show dev eth0 root | sed -n 's/^ *Sent \([0-9]*\) bytes.*/\1/p' | head -n1)
  down=$(nsx "$NS_NAT" tc -s qdisc show dev lan root | sed -n 's/^ *Sent \([0-9]*\) bytes.*/\1/p' | head -n1)
  echo "${up:-0} ${down:-0}"
}

net_unshape() {
  nsx "$NS_GUEST" tc qdisc del dev eth0 root 2>/dev/null || true
  nsx "$NS_NAT" tc qdisc del dev lan root 2>/dev/null || true
}

# How many UDP flows the guest's router has masqueraded (the nat hook sees each flow's first packet):
# proof that media crossed the NAT.
net_nat_count() {
  nsx "$NS_NAT" nft list chain ip lobby postrouting | sed -n 's/.*udp counter packets \([0-9]*\).*/\1/p'
}

# How many packets the guest's firewall dropped (net_policy's counter; 0 when the policy is open).
net_drop_count() {
  nsx "$NS_NAT" nft list chain ip lobby guest | sed -n 's/.*counter packets \([0-9]*\).*/\1/p' | head -n1
}

# net_down: ends what still runs in our namespaces (by PID, e.g. an epmd ejabberd left), then deletes them.
net_down() {
  local ns pid
  for ns in "${NET_ALL[@]}"; do
    [ -e "/run/netns/$ns" ] || continue
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -TERM "$pid" 2>/dev/null || true; done
    sleep 0.2
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
    ip netns del "$ns"
  done
  [ "${1:-}" = quiet ] || echo "netns: down"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  case "${1:-}" in
    up) net_up ;;
    down) net_down ;;
    policy) net_policy "$2" ;;
    cut) net_cut "$2" ;;
    cut-count) net_cut_count ;;
    shape) net_shape "$2" ;;
    unshape) net_unshape ;;
    loss) net_loss "$2" ;;
    shaped-bytes) net_shaped_bytes ;;
    nat-count) net_nat_count ;;
    drop-count) net_drop_count ;;
    *)
      echo "usage: $0 up|down|policy open|no-udp|tcp443-only|cut on|off|cut-count|shape RATE|unshape|shaped-bytes|nat-count|drop-count" >&2
      exit 2
      ;;
  esac
fi
