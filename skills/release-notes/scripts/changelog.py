#!/usr/bin/env python3
"""Collect the commits between two git refs and group them for release notes.

Groups by Conventional Commits type (feat, fix, perf, ...), flags breaking changes
(`type!:` or a `BREAKING CHANGE:` footer), pulls out PR/issue numbers, and guesses a
group for commits that do not follow the convention. Prints JSON (default) or a
Markdown draft on stdout; diagnostics go to stderr.

Default range: from the latest tag reachable from --to (or the tag before it, when
--to itself is tagged) up to --to (default HEAD); the whole history when there is no tag.

Standard library only (Python 3.8+), needs the git CLI. Read-only: never changes the repo.

Exit codes: 0 ok (also for an empty range); 2 usage error or unknown ref;
3 not a git repository, git missing, or the repository has no commits.
"""

import argparse
import json
import os
import re
import subprocess
import sys
from collections import OrderedDict

GROUPS = OrderedDict([
    ("breaking", "Breaking changes"),
    ("feat", "Features"),
    ("fix", "Bug fixes"),
    ("perf", "Performance"),
    ("security", "Security"),
    ("revert", "Reverts"),
    ("deprecate", "Deprecations"),
    ("refactor", "Refactoring"),
    ("docs", "Documentation"),
    ("build", "Build system and dependencies"),
    ("ci", "Continuous integration"),
    ("test", "Tests"),
    ("style", "Code style"),
    ("chore", "Chores"),
    ("other", "Other changes"),
])
# Groups that usually do not reach user-facing notes.
INTERNAL = {"refactor", "build", "ci", "test", "style", "chore"}

ALIASES = {
    "feature": "feat", "features": "feat", "add": "feat", "new": "feat",
    "bugfix": "fix", "hotfix": "fix", "bug": "fix", "fixes": "fix",
    "doc": "docs", "documentation": "docs",
    "tests": "test", "testing": "test",
    "deps": "build", "dep": "build", "dependencies": "build", "release": "chore",
    "performance": "perf", "sec": "security",
    "deprecation": "deprecate", "deprecated": "deprecate",
    "refactoring": "refactor", "cleanup": "refactor", "format": "style", "lint": "style",
}

RE_CC = re.compile(r"^(?P<type>[A-Za-z]+)(?:\((?P<scope>[^()\r\n]*)\))?(?P<bang>!)?:\s*(?P<desc>.+)$")
RE_BREAKING_FOOTER = re.compile(r"^BREAKING[ -]CHANGE:\s*(.*)", re.M)
RE_REFS = re.compile(r"(?:(?<=\s)|(?<=\()|^)#(\d+)\b")
RE_TRAILER_REFS = re.compile(r"^(?:Closes|Fixes|Resolves|Refs?)\b[: ]+(.*)$", re.I | re.M)
RE_COAUTHOR = re.compile(r"^Co-authored-by:\s*([^<\n]+?)\s*<", re.I | re.M)
RE_PR_MERGE = re.compile(r"^Merge pull request #(\d+)\b")
RE_SKIP = re.compile(r"^(Merge (pull request|branch|remote-tracking)|Merge '|"
                     r"chore\(release\)|Release v?\d|v?\d+\.\d+\.\d+$|Bump version)", re.I)

HEURISTICS = [
    ("revert", re.compile(r"^revert\b", re.I)),
    ("fix", re.compile(r"^(fix|fixe[sd]|fixing|correct|repair|resolve|patch|handle|prevent|"
                       r"avoid|bug)\b", re.I)),
    ("security", re.compile(r"^(security|sanitize|escape)\b", re.I)),
    ("perf", re.compile(r"^(speed up|optimi[sz]e|improve performance|faster|cache)\b", re.I)),
    ("deprecate", re.compile(r"^deprecate", re.I)),
    ("docs", re.compile(r"^(docs?|document|readme|update readme|typo)\b", re.I)),
    ("test", re.compile(r"^(test|tests|add tests?|add test coverage)\b", re.I)),
    ("build", re.compile(r"^(bump|upgrade|update dependenc|build|deps)\b", re.I)),
    ("ci", re.compile(r"^ci\b", re.I)),
    ("refactor", re.compile(r"^(refactor|rename|move|clean ?up|simplif|extract|restructure|"
                            r"reorganiz)", re.I)),
    ("feat", re.compile(r"^(add|adds|added|implement|introduce|support|allow|enable|create|"
                        r"new|expose|provide)\b", re.I)),
]

SEP_FIELD = "\x1f"
SEP_REC = "\x1e"


class GitError(Exception):
    def __init__(self, msg, code):
        super().__init__(msg)
        self.code = code


def eprint(*a):
    print(*a, file=sys.stderr)


def fail(msg, code):
    """Report a fatal error on stderr and return the exit code."""
    eprint("error: " + msg)
    return code


def clip(s, n):
    s = " ".join(s.split()) if "\n" in s else s
    return s if len(s) <= n else s[: n - 1] + "\u2026"


def git(repo, *args, check=True):
    cmd = ["git", "-C", repo, "-c", "log.showSignature=false", *args]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except FileNotFoundError:
        raise GitError("git is not installed or not on PATH", 3)
    out = p.stdout.decode("utf-8", "replace")
    if check and p.returncode != 0:
        raise GitError(p.stderr.decode("utf-8", "replace").strip() or "git failed", p.returncode)
    return p.returncode, out


def resolve(repo, ref):
    rc, out = git(repo, "rev-parse", "--verify", "--quiet", ref + "^{commit}", check=False)
    return out.strip() if rc == 0 else None


def default_from(repo, to_sha):
    """Latest tag before `to`: the tag on `to` itself is skipped so a tagged release
    gets notes since the previous tag."""
    rc, out = git(repo, "describe", "--tags", "--abbrev=0", to_sha, check=False)
    if rc != 0:
        return None
    tag = out.strip()
    if resolve(repo, tag) == to_sha:
        rc, out = git(repo, "describe", "--tags", "--abbrev=0", to_sha + "^", check=False)
        if rc != 0:
            return None
        tag = out.strip()
    return tag


def classify(subject, body):
    m = RE_CC.match(subject)
    breaking_note = None
    fm = RE_BREAKING_FOOTER.search(body)
    if fm:
        breaking_note = fm.group(1).strip() or "see commit message"
    if m:
        t = m.group("type").lower()
        t = ALIASES.get(t, t)
        if t not in GROUPS:
            t = "other"
        return {"type": t, "scope": (m.group("scope") or "").strip() or None,
                "description": m.group("desc").strip(), "conventional": True,
                "breaking": bool(m.group("bang")) or fm is not None,
                "breaking_note": breaking_note}
    t = "other"
    for name, rx in HEURISTICS:
        if rx.search(subject):
            t = name
            break
    return {"type": t, "scope": None, "description": subject.strip(), "conventional": False,
            "breaking": fm is not None, "breaking_note": breaking_note}


def refs_in(subject, body):
    found = []
    for m in RE_REFS.finditer(subject):
        found.append("#" + m.group(1))
    for tm in RE_TRAILER_REFS.finditer(body):
        for m in re.finditer(r"#(\d+)", tm.group(1)):
            found.append("#" + m.group(1))
    seen = []
    for r in found:
        if r not in seen:
            seen.append(r)
    return seen


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="changelog.py",
        description="Group the commits between two git refs by Conventional Commits type "
                    "for release notes or a CHANGELOG entry. JSON (default) or Markdown on "
                    "stdout. Read-only.",
        epilog="Exit codes: 0 ok (also when the range is empty); 2 usage error or unknown ref; "
               "3 not a git repo / no commits / git missing. Examples: changelog.py; "
               "changelog.py --from v1.2.0 --to v1.3.0 --format markdown; "
               "changelog.py --from v1.2.0 --path services/api")
    ap.add_argument("range", nargs="?",
                    help="optional FROM..TO range (same as --from/--to)")
    ap.add_argument("--from", dest="from_ref",
                    help="start ref, exclusive (default: previous tag, else the first commit)")
    ap.add_argument("--to", dest="to_ref", default=None, help="end ref, inclusive (default HEAD)")
    ap.add_argument("--repo", "-C", default=".",
                    help="path inside the repository (default: current directory)")
    ap.add_argument("--path", action="append", default=[],
                    help="only commits touching this path (repeatable; for monorepos)")
    ap.add_argument("--format", choices=["json", "markdown"], default="json")
    ap.add_argument("--first-parent", action="store_true",
                    help="follow only the main line: one entry per merged pull request "
                         "(uses the PR title from 'Merge pull request #N' commits)")
    ap.add_argument("--include-internal", action="store_true",
                    help="in markdown, also list refactor/build/ci/test/style/chore groups "
                         "(JSON always has every group)")
    ap.add_argument("--max-per-group", type=int, default=50,
                    help="list at most N commits per group, 10 for internal groups unless "
                         "--include-internal; the rest are counted (default 50)")
    ap.add_argument("--max-chars", type=int, default=24000,
                    help="shrink the per-group lists until the output fits in N characters "
                         "(default 24000)")
    ap.add_argument("--max-commits", type=int, default=2000,
                    help="read at most N commits from the range (default 2000)")
    args = ap.parse_args(argv)
    try:
        sys.stdout.reconfigure(encoding="utf-8")
    except (AttributeError, ValueError):
        pass

    from_ref, to_ref = args.from_ref, args.to_ref
    if args.range:
        if ".." in args.range:
            if "..." in args.range:
                return fail("use FROM..TO (two dots), not FROM...TO", 2)
            a, b = args.range.split("..", 1)
            if (a and from_ref) or (b and to_ref):
                return fail("give the range either positionally or with --from/--to", 2)
            from_ref = a or from_ref
            to_ref = b or to_ref
        else:
            if from_ref:
                return fail("give the range either positionally or with --from/--to", 2)
            from_ref = args.range
    to_ref = to_ref or "HEAD"
    if args.max_per_group < 1 or args.max_commits < 1 or args.max_chars < 1000:
        return fail("--max-per-group and --max-commits must be >= 1, --max-chars >= 1000", 2)

    try:
        rc, top = git(args.repo, "rev-parse", "--show-toplevel", check=False)
        if rc != 0:
            return fail("not inside a git repository: %s" % os.path.abspath(args.repo), 3)
        rc, _ = git(args.repo, "rev-parse", "--verify", "--quiet", "HEAD", check=False)
        if rc != 0:
            return fail("the repository has no commits yet", 3)
        to_sha = resolve(args.repo, to_ref)
        if not to_sha:
            return fail("unknown ref for --to: %s" % to_ref, 2)
        from_how = "given"
        if from_ref:
            from_sha = resolve(args.repo, from_ref)
            if not from_sha:
                return fail("unknown ref for --from: %s (list tags with: git tag --sort=-v:refname)"
                       % from_ref, 2)
        else:
            from_ref = default_from(args.repo, to_sha)
            from_sha = resolve(args.repo, from_ref) if from_ref else None
            from_how = "previous tag" if from_ref else "root (no earlier tag)"
            eprint("info: range start = %s" % (from_ref or "first commit"))

        rev = "%s..%s" % (from_sha, to_sha) if from_sha else to_sha
        fmt = SEP_FIELD.join(["%H", "%h", "%an", "%aI", "%s", "%b"]) + SEP_REC
        log_args = ["log", "--format=" + fmt, "--max-count=%d" % (args.max_commits + 1)]
        if args.first_parent:
            log_args.append("--first-parent")
        else:
            log_args.append("--no-merges")
        log_args.append(rev)
        if args.path:
            log_args += ["--"] + args.path
        _, out = git(args.repo, *log_args)
        _, total = git(args.repo, "rev-list", "--count",
                       "--first-parent" if args.first_parent else "--no-merges",
                       rev, *(["--"] + args.path if args.path else []))
        tag_rc, to_tag = git(args.repo, "describe", "--tags", "--exact-match", to_sha, check=False)
        merges = "0"
        if not args.first_parent:
            _, merges = git(args.repo, "rev-list", "--count", "--merges", rev,
                            *(["--"] + args.path if args.path else []))
    except GitError as e:
        return fail(str(e), e.code if e.code in (2, 3) else 2)

    records = [r.strip("\n") for r in out.split(SEP_REC) if r.strip("\n")]
    truncated_commits = len(records) > args.max_commits
    records = records[: args.max_commits]

    groups = OrderedDict((k, []) for k in GROUPS)
    counts = OrderedDict((k, 0) for k in GROUPS)
    authors = OrderedDict()
    skipped = 0
    conventional = 0
    dates = []
    for rec in records:
        parts = rec.split(SEP_FIELD)
        if len(parts) < 6:
            continue
        sha, short, author, when, subject, body = parts[:6]
        dates.append(when)
        pr = RE_PR_MERGE.match(subject)
        if pr and body.strip():
            # GitHub merge commit: the body's first line is the PR title
            subject = body.strip().splitlines()[0].strip()
            extra_ref = "#" + pr.group(1)
        else:
            extra_ref = None
        if RE_SKIP.search(subject):
            skipped += 1
            continue
        c = classify(subject, body)
        conventional += c["conventional"]
        authors[author] = authors.get(author, 0) + 1
        for co in RE_COAUTHOR.findall(body):
            authors.setdefault(co.strip(), 0)
        item = OrderedDict([("hash", short), ("type", c["type"])])
        if c["scope"]:
            item["scope"] = c["scope"]
        item["description"] = clip(c["description"], 200)
        if not c["conventional"]:
            item["guessed_type"] = True
        refs = refs_in(subject, body)
        if extra_ref and extra_ref not in refs:
            refs.insert(0, extra_ref)
        if refs:
            item["refs"] = refs
        item["author"] = author
        if c["breaking"]:
            item["breaking"] = True
            if c["breaking_note"]:
                item["breaking_note"] = clip(c["breaking_note"], 400)
        group = "breaking" if c["breaking"] else c["type"]
        counts[group] += 1
        groups[group].append(item)

    listed = sum(counts.values())
    result = OrderedDict()
    result["repo"] = top.strip()
    result["from"] = from_ref
    result["from_how"] = from_how
    result["to"] = to_ref
    result["to_tag"] = to_tag.strip() if tag_rc == 0 else None
    if args.path:
        result["paths"] = args.path
    result["range"] = "%s..%s" % (from_ref, to_ref) if from_sha else to_ref + " (all history)"
    result["commits_in_range"] = int(total.strip() or 0)
    result["commits_read"] = len(records)
    if truncated_commits:
        result["truncated"] = "only the newest %d commits were read; narrow the range or raise " \
                              "--max-commits" % args.max_commits
    result["skipped_merge_or_release_commits"] = skipped
    if int(merges.strip() or 0):
        result["merge_commits_skipped"] = int(merges.strip())
        result["hint"] = ("the range has merge commits; if the branch commits are noisy (wip, "
                          "fixups), rerun with --first-parent to get one entry per merged PR")
    result["conventional_share"] = round(conventional / listed, 2) if listed else None
    if dates:
        result["first_date"] = min(dates)[:10]
        result["last_date"] = max(dates)[:10]
    result["counts"] = OrderedDict((k, v) for k, v in counts.items() if v)
    bump, nxt = suggest_version(from_ref, counts)
    if bump:
        result["suggested_bump"] = bump
        if nxt:
            result["suggested_version"] = nxt
    result["contributors"] = list(authors)[:100]

    cap = args.max_per_group
    while True:
        result["groups"] = OrderedDict(
            (k, v[: cap if (k not in INTERNAL or args.include_internal) else min(cap, 10)])
            for k, v in groups.items() if v)
        omitted = {k: counts[k] - len(v) for k, v in result["groups"].items()
                   if counts[k] > len(v)}
        if omitted:
            result["omitted_per_group"] = omitted
        else:
            result.pop("omitted_per_group", None)
        text = render_json(result) if args.format == "json" else \
            markdown(result, args.include_internal)
        if len(text) <= args.max_chars or cap <= 3:
            break
        cap = max(3, cap * 2 // 3)
    if cap < args.max_per_group:
        eprint("info: lists shortened to %d per group to stay under --max-chars %d"
               % (cap, args.max_chars))
    sys.stdout.write(text)
    if not records:
        eprint("info: no commits in range %s" % result["range"])
    return 0


def suggest_version(from_ref, counts):
    """SemVer bump implied by the commits, and the next version if from_ref is a version tag.
    Before 1.0.0 a breaking change bumps the minor version, by common convention."""
    if not any(counts.values()):
        return None, None
    bump = "major" if counts["breaking"] else "minor" if counts["feat"] else "patch"
    m = re.match(r"^(?P<pre>.*?)v?(?P<ma>\d+)\.(?P<mi>\d+)\.(?P<pa>\d+)$", from_ref or "")
    if not m:
        return bump, None
    ma, mi, pa = int(m.group("ma")), int(m.group("mi")), int(m.group("pa"))
    if bump == "major" and ma == 0:
        bump = "minor (breaking, pre-1.0)"
        mi, pa = mi + 1, 0
    elif bump == "major":
        ma, mi, pa = ma + 1, 0, 0
    elif bump == "minor":
        mi, pa = mi + 1, 0
    else:
        pa += 1
    v = "v" if (from_ref or "")[len(m.group("pre")):].startswith("v") else ""
    return bump, "%s%s%d.%d.%d" % (m.group("pre"), v, ma, mi, pa)


def render_json(r):
    """Indented JSON with one commit per line: readable and compact."""
    out = ["{"]
    keys = list(r)
    for i, k in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        v = r[k]
        if k == "groups" and v:
            out.append(' "groups": {')
            gkeys = list(v)
            for j, g in enumerate(gkeys):
                out.append("  %s: [" % json.dumps(g))
                items = v[g]
                for n, it in enumerate(items):
                    out.append("   " + json.dumps(it, ensure_ascii=False)
                               + ("," if n < len(items) - 1 else ""))
                out.append("  ]" + ("," if j < len(gkeys) - 1 else ""))
            out.append(" }" + comma)
        else:
            out.append(" %s: %s%s" % (json.dumps(k), json.dumps(v, ensure_ascii=False), comma))
    out.append("}")
    return "\n".join(out) + "\n"


def markdown(r, include_internal):
    title = r["to_tag"] or "Unreleased"
    lines = ["## %s%s" % (title, " (%s)" % r["last_date"] if r.get("last_date") else ""), ""]
    if not r["groups"]:
        lines.append("_No changes in %s._" % r["range"])
        return "\n".join(lines) + "\n"
    for key, heading in GROUPS.items():
        items = r["groups"].get(key)
        if not items or (key in INTERNAL and not include_internal):
            continue
        lines.append("### " + heading)
        lines.append("")
        for it in items:
            scope = "**%s:** " % it["scope"] if it.get("scope") else ""
            text = it["breaking_note"] if key == "breaking" and it.get("breaking_note") \
                else it["description"]
            new_refs = [x for x in it.get("refs", []) if x not in text]
            refs = " (%s)" % ", ".join(new_refs) if new_refs else ""
            lines.append("- %s%s%s (%s)" % (scope, text, refs, it["hash"]))
        more = r["counts"][key] - len(items)
        if more > 0:
            lines.append("- _…and %d more_" % more)
        lines.append("")
    hidden = [k for k in INTERNAL if k in r["counts"]]
    if hidden and not include_internal:
        lines.append("<!-- not shown: %s -->" % ", ".join(
            "%s %d" % (k, r["counts"][k]) for k in GROUPS if k in hidden))
        lines.append("")
    if r["contributors"]:
        lines.append("Contributors: " + ", ".join(r["contributors"]))
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
