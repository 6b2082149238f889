#!/bin/sh
# mirror.sh SRC DST: make DST a copy of the runner's sources in SRC (target/ and dotfiles left out),
# writing only the files whose bytes differ and removing those SRC no longer has, so that
# every unchanged file keeps its time and Cargo, building in DST, rebuilds only what changed
# (Makefile, "Compiled crates are kept per user").
set -eu
src=$1
dst=$2
mkdir -p "$dst"
(cd "$src" && find . -path ./target -prune -o -path './.*' -prune -o -type f -print) | while IFS= read -r f; do
	if ! cmp -s "$src/$f" "$dst/$f"; then
		mkdir -p "$dst/$(dirname "$f")"
		cp "$src/$f" "$dst/$f"
	fi
done
(cd "$dst" && find . -path ./target -prune -o -path './.*' -prune -o -type f -print) | while IFS= read -r f; do
	[ -e "$src/$f" ] || rm -f "$dst/$f"
done
