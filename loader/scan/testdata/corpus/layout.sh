#!/usr/bin/env bash
# layout.sh MIRRORS CORPORA lays out, in CORPORA/OWNER+NAME, every source of
# README.md's table whose snapshot MIRRORS/OWNER+NAME/repo (a bare git
# directory) holds the commits the table names: the files at each commit,
# later commits over earlier ones, blob by blob where the snapshot lacks a
# few. It prints one line per source: OK, or why it was left for a hand
# layout (no snapshot, a commit missing, commits given per file in
# provenance/OWNER+NAME.txt). TestCorpusInputs then says which sources
# match the figures' layout; a source that needs a derived layout (a skill
# written inline in a test) is laid out by hand as its loader reads it.
set -euo pipefail
mirrors=${1:?usage: layout.sh MIRRORS CORPORA}
corpora=${2:?usage: layout.sh MIRRORS CORPORA}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$corpora"

# blobs GITDIR COMMIT DEST writes each blob the snapshot holds.
blobs() {
	git --git-dir="$1" ls-tree -r -z "$2" | while IFS= read -r -d '' entry; do
		local meta=${entry%%$'\t'*} path=${entry#*$'\t'}
		set -- $meta
		[ "$2" = blob ] || continue
		mkdir -p "$DEST/$(dirname "$path")"
		{ git --git-dir="$GITDIR" cat-file blob "$3" >"$DEST/$path"; } 2>/dev/null || rm -f "$DEST/$path"
	done
}

# The table's rows: | `owner/name` | split | role | commits | licence |.
awk -F'|' '/^\| `[^`]+\/[^`]+`/ {
	src = $2; gsub(/[ `]/, "", src); sub(/\(.*/, "", src)
	commits = ""
	n = split($5, parts, "`")
	for (i = 2; i <= n; i += 2) if (length(parts[i]) == 40 && parts[i] ~ /^[0-9a-f]+$/) commits = commits " " parts[i]
	print src "\t" commits
}' "$here/README.md" | while IFS=$'\t' read -r src commits; do
	dir=${src//\//+}
	gitdir=$mirrors/$dir/repo
	if [ -z "$commits" ]; then echo "HAND $src: commits per file in provenance/$dir.txt"; continue; fi
	if [ ! -d "$gitdir" ]; then echo "HAND $src: no snapshot"; continue; fi
	missing=""
	for c in $commits; do git --git-dir="$gitdir" cat-file -e "$c^{commit}" 2>/dev/null || missing="$missing $c"; done
	if [ -n "$missing" ]; then echo "HAND $src: the snapshot lacks$missing"; continue; fi
	mkdir -p "$corpora/$dir"
	for c in $commits; do
		# ClawHub's archive is cut where git archive stops, as the figures were.
		if ! git --git-dir="$gitdir" archive "$c" 2>/dev/null | tar -x -C "$corpora/$dir" 2>/dev/null && [ "$src" != openclaw/skills ]; then
			GITDIR=$gitdir DEST=$corpora/$dir blobs "$gitdir" "$c"
		fi
	done
	echo "OK $src"
done
