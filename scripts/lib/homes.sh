# shellcheck shell=bash
# Sourced by scripts/test (functions only, no side effects: it runs before env.sh fills a run dir).
#
# When the checkout lies under a folder the servers' users cannot enter, infra/lib.sh's lobby_home_for
# keeps ejabberd's, PostgreSQL's and nginx's folders under /var/tmp/lobby-<hash>/<name> and links them
# from their usual place in the run or log dir. `rm -rf` of a run dir removes only those links: the
# folders (ejabberd's Mnesia spool, nginx's www, logs) would outlive it, and the next run would not
# start fresh. lobby_release_homes removes them.

# lobby_release_homes DIR [keep-logs]: for every link under DIR (its inner run dirs too: the network
# journeys' DIR/net, the configure check) that points at such a folder, removes the folder, and its
# /var/tmp/lobby-<hash> parent once empty. Only targets of exactly that shape are touched (read from the
# link itself, not resolved further), never the link's own folder nor anything else. With keep-logs, a
# folder linked from a `logs` folder is first copied to where its link was, so the logs of a run stay
# readable in the run dir after it.
lobby_release_homes() {
  local root=$1 mode=${2:-} link target
  [ -d "$root" ] || return 0
  while IFS= read -r -d '' link; do
    target=$(readlink "$link") || continue
    [[ "$target" =~ ^/var/tmp/lobby-[0-9a-f]{12}/[A-Za-z0-9_][A-Za-z0-9._-]*$ ]] || continue
    if [ -d "$target" ] && [ ! -L "$target" ]; then
      if [ "$mode" = keep-logs ] && [ "$(basename "$(dirname "$link")")" = logs ]; then
        rm -f "$link"
        cp -a "$target" "$link"
      fi
      rm -rf "$target"
    fi
    rmdir "${target%/*}" 2>/dev/null || true
  done < <(find "$root" -type l -print0)
}
