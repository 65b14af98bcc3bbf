#!/usr/bin/env bash
# realskills.sh MIRRORS OUT COLLECTION lays out a collection of real skills
# (BENCHMARKS.md, "Real skills") as the figures read it: for each source of
# the collection in realskills.tsv (first to seventh), the
# snapshot MIRRORS/OWNER+NAME/repo (a bare git directory, as the library's
# fetch leaves it) gives, in OUT/OWNER+NAME/, every folder of the tree at
# the source's commit that holds a file named exactly SKILL.md, at any
# depth, hidden folders too. A folder is copied whole, nested skill folders
# with it (and each again as its own), but for files of 256 KB or more,
# files with a NUL byte in their first 8 KB, links and submodules. Folders
# are taken in path order; one whose name is taken takes its parent's name
# before it (skills-start), then a number (skills-start-2). A blob the
# snapshot lacks is named on stderr and left out. Then, per source:
#
#	toolsearch scan --skills OUT/OWNER+NAME --json
#
# and count the skills with a finding whose severity is withhold.
set -euo pipefail
mirrors=${1:?usage: realskills.sh MIRRORS OUT COLLECTION}
out=${2:?usage: realskills.sh MIRRORS OUT COLLECTION}
collection=${3:?usage: realskills.sh MIRRORS OUT COLLECTION}
here=$(cd "$(dirname "$0")" && pwd)
maxSize=262144

awk -F'\t' -v c="$collection" '$1 == c {print $2 "\t" $3}' "$here/realskills.tsv" | while IFS=$'\t' read -r src commit; do
	dir=${src//\//+}
	git=$mirrors/$dir/repo
	if ! git --git-dir="$git" cat-file -e "$commit^{commit}" 2>/dev/null; then
		echo "SKIP $src: no snapshot holds $commit" >&2
		continue
	fi
	dest=$out/$dir
	mkdir -p "$dest"
	tree=$(mktemp)
	git --git-dir="$git" ls-tree -r -l -z "$commit" | tr '\0' '\n' >"$tree"
	declare -A taken=()
	n=0
	# The skill folders, in path order ("." for a SKILL.md at the top).
	while IFS= read -r folder; do
		base=$(basename "$folder")
		[ "$folder" = . ] && base=${src#*/}
		name=$base
		if [ -n "${taken[$name]:-}" ]; then
			parent=$(basename "$(dirname "$folder")")
			name=$parent-$base
			i=2
			while [ -n "${taken[$name]:-}" ]; do name=$parent-$base-$i; i=$((i + 1)); done
		fi
		taken[$name]=1
		n=$((n + 1))
		prefix=$folder/
		[ "$folder" = . ] && prefix=
		# mode type object size<TAB>path: blobs only (no links, no submodules).
		awk -F'\t' -v p="$prefix" '{split($1, m, " ")} m[1] != "120000" && m[2] == "blob" && substr($2, 1, length(p)) == p {print m[3] "\t" m[4] "\t" substr($2, length(p) + 1)}' "$tree" |
			while IFS=$'\t' read -r object size rel; do
				# A blob the snapshot lacks has no size ("BAD").
				if ! [[ $size =~ ^[0-9]+$ ]]; then
					echo "MISSING $src $folder/$rel" >&2
					continue
				fi
				[ "$size" -lt "$maxSize" ] || continue
				file=$dest/$name/$rel
				mkdir -p "$(dirname "$file")"
				if ! git --git-dir="$git" cat-file blob "$object" >"$file" 2>/dev/null; then
					echo "MISSING $src $folder/$rel" >&2
					rm -f "$file"
					continue
				fi
				if [ "$(head -c 8192 "$file" | tr -d -c '\000' | wc -c)" -gt 0 ]; then
					rm -f "$file"
				fi
			done
	done < <(awk -F'\t' '{split($1, m, " ")} m[2] == "blob" && ($2 == "SKILL.md" || $2 ~ /\/SKILL\.md$/) {d = $2; sub(/\/?SKILL\.md$/, "", d); print (d == "" ? "." : d)}' "$tree" | LC_ALL=C sort)
	unset taken
	rm -f "$tree"
	find "$dest" -type d -empty -delete
	echo "OK $src: $n skill folders"
done
