# shellcheck shell=bash
# Sourced by the project's scripts: makes sure Node 24 LTS or newer is first on PATH.
# A fresh machine here has Node 20 (past end of life). When the node on PATH is older than 24 we unpack
# the official build that the npm registry ships as the package node-linux-<arch>@24 into .tools/node
# and put it first on PATH. Its headers (include/node) are what native addons must build against, so
# npm_config_nodedir points there (this machine's ~/.npmrc says nodedir=/usr, Node 20's headers).
lobby_root=${lobby_root:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}

lobby_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

lobby_ensure_node() {
  local dir="$lobby_root/.tools/node"
  if [ -x "$dir/bin/node" ]; then
    export PATH="$dir/bin:$PATH"
  fi
  if [ "$(lobby_node_major)" -ge 24 ]; then
    [ -d "$dir/include/node" ] && export npm_config_nodedir="$dir"
    return 0
  fi
  local arch
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "lobby: no Node 24 build for $(uname -m)" >&2; return 1 ;;
  esac
  command -v npm >/dev/null || { echo "lobby: npm is needed to fetch Node 24 (apt-get install npm)" >&2; return 1; }
  echo "lobby: unpacking Node 24 (node-linux-$arch@24 from the npm registry) into .tools/node"
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "node-linux-$arch@24" >/dev/null) || { rm -rf "$tmp"; return 1; }
  rm -rf "$dir" && mkdir -p "$dir"
  tar -xzf "$tmp"/node-linux-*.tgz -C "$dir" --strip-components=1
  rm -rf "$tmp"
  export PATH="$dir/bin:$PATH"
  export npm_config_nodedir="$dir"
  [ "$(lobby_node_major)" -ge 24 ] || { echo "lobby: Node 24 did not unpack" >&2; return 1; }
}
