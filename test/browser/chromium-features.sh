#!/bin/bash
# Chromium as the run's server launches it (chromium-server.cjs), with more of its features turned off.
# playwright turns some off with its own --disable-features, and Chromium reads only the last of these
# switches: ours are added to that one rather than given apart, which would turn playwright's back on.
# RenderDocument off: a page navigated keeps its frame instead of a new one per document, a fifth of
# what a navigation cost (Chromium's own CPU); what the page lays out, draws and runs is the same.
set -eu
off=RenderDocument
args=()
given=0
for a in "$@"; do
  case "$a" in
    --disable-features=*) a="$a,$off" given=1 ;;
  esac
  args+=("$a")
done
[ "$given" = 1 ] || args+=("--disable-features=$off")
exec "$SPLIT_SANDBOX_CHROMIUM" "${args[@]}"
