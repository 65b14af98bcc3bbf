#!/usr/bin/env python3
"""Check Agent Skills (SKILL.md folders) against the spec and common host rules.

Accepts a skill folder, a SKILL.md file, or a skills root (a folder whose direct
subfolders hold SKILL.md files). Reports errors (the skill is invalid under the spec
or is rejected by a common host) and warnings (it loads, but something will hurt:
weak description, oversized body, broken file references, scripts without a shebang
or executable bit, ...).

Standard library only (Python 3.8+). Parses the plain YAML subset that frontmatter
uses (block and flow scalars, one-level metadata map); exotic YAML (anchors, tags,
flow mappings) is reported as unsupported rather than guessed.

Exit codes: 0 no errors (warnings allowed unless --strict); 1 errors found (or
warnings with --strict); 2 usage error or path not found.
"""

import argparse
import json
import os
import re
import stat
import sys

SPEC_KEYS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
CLAUDE_CODE_KEYS = {"when_to_use", "argument-hint", "arguments", "disable-model-invocation",
                    "user-invocable", "disallowed-tools", "model", "effort", "context", "agent",
                    "hooks", "paths", "shell"}
NAME_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MAX_SKILLS = 200
OUTPUT_BUDGET = 24000


def eprint(*a):
    print(*a, file=sys.stderr)


# ---------------------------------------------------------------- minimal YAML subset

class YamlError(Exception):
    def __init__(self, line, msg):
        super().__init__(msg)
        self.line = line
        self.msg = msg


class Scalar:
    """A parsed scalar: value text, whether it was quoted/block, and YAML's type for plain."""

    def __init__(self, value, style, line):
        self.value = value
        self.style = style      # plain | single | double | literal | folded
        self.line = line

    @property
    def kind(self):
        if self.style != "plain":
            return "str"
        v = self.value
        if v in ("", "~", "null", "Null", "NULL"):
            return "null"
        if v in ("true", "True", "TRUE", "false", "False", "FALSE"):
            return "bool"
        if v.lower() in ("yes", "no", "on", "off", "y", "n"):
            return "bool (YAML 1.1)"
        if re.match(r"^[-+]?(0|[1-9][0-9_]*|0x[0-9a-fA-F]+|0o?[0-7]+)$", v):
            return "int"
        if re.match(r"^[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?$", v) \
                or v.lower() in (".inf", "-.inf", "+.inf", ".nan"):
            return "float"
        if re.match(r"^\d{4}-\d{2}-\d{2}$", v):
            return "date (YAML 1.1)"
        return "str"


def indent_of(s):
    return len(s) - len(s.lstrip(" "))


def parse_plain(text, lineno, warnings):
    t = text.strip()
    if t[:1] in ("@", "`", "%"):
        raise YamlError(lineno, "a plain value cannot start with %r; quote the value" % t[0])
    if t[:1] in ("&", "*", "!"):
        raise YamlError(lineno, "anchors, aliases and tags (%r) are not supported in "
                        "frontmatter; quote the value" % t[0])
    if t[:2] in ("- ", "? ") or t == "-":
        raise YamlError(lineno, "unexpected %r; quote the value" % t[:1])
    m = re.search(r"\s#", t)
    if m:
        warnings.append("line %d: ' #' starts a YAML comment, so the value is cut to %r; "
                        "quote the value to keep the rest" % (lineno, t[: m.start()].strip()))
        t = t[: m.start()].rstrip()
    if re.search(r":(\s|$)", t):
        raise YamlError(lineno, "': ' inside an unquoted value is invalid YAML ('mapping values "
                        "are not allowed'); wrap the value in double quotes")
    return t


def read_quoted(lines, i, first, lineno):
    """Read a single- or double-quoted scalar that may continue over several lines.
    Returns (value, style, next_index)."""
    q = first[0]
    buf = first[1:]
    j = i
    while True:
        # find closing quote
        k = 0
        while k < len(buf):
            ch = buf[k]
            if q == '"' and ch == "\\":
                k += 2
                continue
            if ch == q:
                if q == "'" and k + 1 < len(buf) and buf[k + 1] == "'":
                    k += 2
                    continue
                rest = buf[k + 1:].strip()
                if rest and not rest.startswith("#"):
                    raise YamlError(lineno, "unexpected text after the closing quote: %r" % rest)
                raw = buf[:k]
                return decode_quoted(raw, q, lineno), ("double" if q == '"' else "single"), j + 1
            k += 1
        j += 1
        if j >= len(lines):
            raise YamlError(lineno, "unterminated %s-quoted string" %
                            ("double" if q == '"' else "single"))
        nxt = lines[j].strip()
        buf = buf.rstrip() + ("\n" if nxt == "" else " ") + nxt


def decode_quoted(raw, q, lineno):
    if q == "'":
        return raw.replace("''", "'")
    simple = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "/": "/", "0": "\0", " ": " ",
              "r": "\r", "e": "\x1b", "a": "\a", "b": "\b", "N": "\x85", "_": "\xa0"}
    out = []
    i = 0
    while i < len(raw):
        c = raw[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        n = raw[i + 1: i + 2]
        if n in simple:
            out.append(simple[n])
            i += 2
        elif n in ("x", "u", "U"):
            width = {"x": 2, "u": 4, "U": 8}[n]
            hexs = raw[i + 2: i + 2 + width]
            try:
                out.append(chr(int(hexs, 16)))
            except ValueError:
                raise YamlError(lineno, "bad escape \\%s%s in double-quoted string" % (n, hexs))
            i += 2 + width
        else:
            raise YamlError(lineno, "unknown escape \\%s in double-quoted string; use single "
                            "quotes or double the backslash" % n)
    return "".join(out)


def read_block(lines, i, header, lineno):
    """Literal (|) or folded (>) block scalar. Returns (value, style, next_index)."""
    m = re.match(r"^([|>])([-+]?)([1-9]?)([-+]?)\s*(#.*)?$", header)
    if not m:
        raise YamlError(lineno, "bad block scalar header %r" % header)
    style = "literal" if m.group(1) == "|" else "folded"
    chomp = m.group(2) or m.group(4)
    body = []
    j = i + 1
    while j < len(lines) and (lines[j].strip() == "" or indent_of(lines[j]) > 0):
        body.append(lines[j])
        j += 1
    # trailing blank lines belong to chomping, not content
    while body and body[-1].strip() == "":
        body.pop()
    ind = min((indent_of(x) for x in body if x.strip()), default=0)
    texts = [x[ind:] if x.strip() else "" for x in body]
    if style == "literal":
        value = "\n".join(texts)
    else:
        value, prev = "", None
        for t in texts:
            if t == "":
                value += "\n"
                continue
            kind = "more" if t.startswith((" ", "\t")) else "normal"
            if not value or value.endswith("\n"):
                value += t
            elif kind == "more" or prev == "more":
                value += "\n" + t
            else:
                value += " " + t
            prev = kind
    if chomp != "-" and value:
        value += "\n"
    return value, style, j


def parse_frontmatter(text):
    """Return (mapping, warnings). mapping values: Scalar, list of Scalar, or dict str->Scalar."""
    warnings = []
    lines = text.split("\n")
    data = {}
    keylines = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        lineno = i + 2          # +1 for 1-based, +1 for the opening ---
        if line.strip() and line[indent_of(line)] == "\t":
            raise YamlError(lineno, "tab used for indentation; YAML allows spaces only")
        if not line.strip() or line.lstrip().startswith("#"):
            i += 1
            continue
        if indent_of(line) > 0:
            raise YamlError(lineno, "unexpected indentation")
        m = re.match(r"^([^\s:#'\"][^:]*?|\"[^\"]*\"|'[^']*')\s*:(?:[ \t]+(.*))?$", line)
        if not m:
            raise YamlError(lineno, "expected 'key: value'")
        key = m.group(1).strip().strip("'\"")
        if key in data:
            raise YamlError(lineno, "duplicate key %r (first on line %d)" % (key, keylines[key]))
        keylines[key] = lineno
        rest = (m.group(2) or "").strip()
        if rest.startswith("#"):
            rest = ""
        if rest == "":
            # nested block: mapping or sequence, or null
            j = i + 1
            block = []
            while j < len(lines) and (not lines[j].strip() or indent_of(lines[j]) > 0
                                      or lines[j].startswith("- ")):
                block.append((j, lines[j]))
                j += 1
            while block and not block[-1][1].strip():
                block.pop()
            content = [(n, l) for n, l in block if l.strip() and not l.lstrip().startswith("#")]
            if not content:
                data[key] = Scalar("", "plain", lineno)
            elif content[0][1].lstrip().startswith("- ") or content[0][1].strip() == "-":
                items = []
                for n, l in content:
                    s = l.strip()
                    if not s.startswith("-"):
                        raise YamlError(n + 2, "expected a '- item' line")
                    v = s[1:].strip()
                    if v[:1] in ("'", '"'):
                        val, style, _ = read_quoted([v], 0, v, n + 2)
                        items.append(Scalar(val, style, n + 2))
                    else:
                        items.append(Scalar(parse_plain(v, n + 2, warnings), "plain", n + 2))
                data[key] = items
            else:
                sub = {}
                base = indent_of(content[0][1])
                k = 0
                while k < len(content):
                    n, l = content[k]
                    if indent_of(l) != base:
                        raise YamlError(n + 2, "only one level of nesting is supported here "
                                        "(values must be plain strings)")
                    mm = re.match(r"^\s*([^\s:#'\"][^:]*?|\"[^\"]*\"|'[^']*')\s*:(?:[ \t]+(.*))?$", l)
                    if not mm:
                        raise YamlError(n + 2, "expected 'key: value' inside %r" % key)
                    sk = mm.group(1).strip().strip("'\"")
                    if sk in sub:
                        raise YamlError(n + 2, "duplicate key %r in %r" % (sk, key))
                    sv = (mm.group(2) or "").strip()
                    if sv[:1] in ("'", '"'):
                        val, style, _ = read_quoted([sv], 0, sv, n + 2)
                        sub[sk] = Scalar(val, style, n + 2)
                    elif sv[:1] in ("|", ">", "[", "{"):
                        raise YamlError(n + 2, "block or flow values are not supported in "
                                        "%r; use a quoted string" % key)
                    else:
                        sub[sk] = Scalar(parse_plain(sv, n + 2, warnings) if sv else "",
                                         "plain", n + 2)
                    k += 1
                data[key] = sub
            i = j
            continue
        if rest[0] in ("|", ">"):
            val, style, i = read_block(lines, i, rest, lineno)
            data[key] = Scalar(val, style, lineno)
            continue
        if rest[0] in ("'", '"'):
            val, style, i = read_quoted(lines, i, rest, lineno)
            data[key] = Scalar(val, style, lineno)
            continue
        if rest[0] == "{":
            raise YamlError(lineno, "flow mappings ({...}) are not supported; use an indented "
                            "block of 'key: value' lines")
        if rest[0] == "[":
            inner = rest.strip()
            if not inner.endswith("]"):
                raise YamlError(lineno, "multi-line flow sequences are not supported")
            items = [x.strip().strip("'\"") for x in inner[1:-1].split(",") if x.strip()]
            data[key] = [Scalar(x, "single", lineno) for x in items]
            i += 1
            continue
        # plain scalar, possibly continued on more-indented lines
        parts = [parse_plain(rest, lineno, warnings)]
        j = i + 1
        while j < len(lines) and lines[j].strip() and indent_of(lines[j]) > 0:
            parts.append(parse_plain(lines[j], j + 2, warnings))
            j += 1
        data[key] = Scalar(" ".join(parts), "plain", lineno)
        i = j
    return data, warnings


# ---------------------------------------------------------------- checks

def split_file(raw, errors):
    """Return (frontmatter_text, body_text, body_first_line) or None."""
    if raw.startswith(b"\xef\xbb\xbf"):
        errors.append("file starts with a UTF-8 byte-order mark; save without BOM so '---' is "
                      "the first thing on line 1")
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        errors.append("file is not valid UTF-8 (%s)" % e)
        return None
    if "\r\n" in text:
        errors.append("CRLF line endings; convert to LF (some hosts then fail to find the "
                      "frontmatter)")
        text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    if lines[0].rstrip() != "---":
        errors.append("line 1 must be exactly '---' (frontmatter start); found %r"
                      % lines[0][:40])
        return None
    if lines[0] != "---":
        errors.append("line 1 has trailing spaces after '---'")
    for n in range(1, len(lines)):
        if lines[n].rstrip() == "---":
            return "\n".join(lines[1:n]), "\n".join(lines[n + 1:]), n + 2
    errors.append("frontmatter is not closed: no second '---' line")
    return None


def as_str(node, key, errors, warnings):
    if node is None:
        return None
    if isinstance(node, (list, dict)):
        errors.append("%s must be a string, found a %s" %
                      (key, "list" if isinstance(node, list) else "mapping"))
        return None
    kind = node.kind
    if kind != "str":
        if "1.1" in kind:     # only YAML 1.1 parsers (PyYAML, yaml.v2) read it that way
            warnings.append("%s: some YAML parsers read %r as %s; quote it"
                            % (key, node.value, kind))
        else:
            errors.append("%s must be a string, but YAML reads %r as %s; quote it"
                          % (key, node.value, kind))
        return node.value
    return node.value


def check_description(desc, errors, warnings):
    if desc is None:
        errors.append("description is missing (required; hosts skip skills without one)")
        return
    d = desc.strip()
    if not d:
        errors.append("description is empty")
        return
    if len(desc) > 1024:
        errors.append("description is %d characters; the limit is 1024" % len(desc))
    if "<" in desc or ">" in desc:
        errors.append("description contains '<' or '>'; packaging validators and claude.ai "
                      "reject angle brackets and XML tags")
    if len(d) < 60:
        warnings.append("description is only %d characters: say what the skill does and when "
                        "to use it, in the words a user would type" % len(d))
    if not re.search(r"\b(use[sd]?|using|invoke[sd]?|appl(y|ies)) (it |this( skill)? )?"
                     r"(when|for|to|if|whenever|after|before|on|with)\b"
                     r"|\bwhen(ever)? (the |a |an )?(user|you|asked|someone|working|dealing|"
                     r"handling|editing|writing|creating)\b|\btrigger", d, re.I):
        warnings.append("description has no 'Use when ...' clause; add the situations and "
                        "phrases that should activate the skill")
    if re.match(r"^(i|we|you)\b", d, re.I) or re.search(r"\b(I can|I will|you can)\b", d):
        warnings.append("description is written in first/second person; write in the third "
                        "person ('Profiles CSV files...'), as it is injected into a system prompt")
    if "\n" in d:
        warnings.append("description contains line breaks; a single paragraph displays best in "
                        "catalogs")


def refs_in_body(body):
    """Yield (kind, target, line) for markdown links and backticked skill paths outside
    fenced code blocks."""
    fence = None
    for n, line in enumerate(body.split("\n")):
        s = line.lstrip()
        m = re.match(r"^(```+|~~~+)", s)
        if m:
            if fence is None:
                fence = m.group(1)[0] * 3
            elif s.startswith(fence):
                fence = None
            continue
        if fence:
            continue
        for m in re.finditer(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", line):
            yield "link", m.group(1), n
        for m in re.finditer(r"!\[[^\]]*\]\(([^)\s]+)\)", line):
            yield "link", m.group(1), n
        for m in re.finditer(r"`((?:scripts|references|assets)/[^`\s]+)", line):
            yield "code", m.group(1), n


def check_skill(skill_dir, md_path, strict_name=True):
    errors, warnings = [], []
    res = {"path": skill_dir}
    try:
        with open(md_path, "rb") as f:
            raw = f.read()
    except OSError as e:
        return dict(res, ok=False, errors=["cannot read SKILL.md: %s" % e], warnings=[])
    parts = split_file(raw, errors)
    if parts is None:
        return dict(res, ok=False, errors=errors, warnings=warnings)
    fm, body, body_line = parts
    try:
        data, ywarn = parse_frontmatter(fm)
        warnings.extend(ywarn)
    except YamlError as e:
        errors.append("frontmatter YAML, line %d: %s" % (e.line, e.msg))
        return dict(res, ok=False, errors=errors, warnings=warnings)

    for k in data:
        if k not in SPEC_KEYS:
            hint = " (a Claude Code-only field; other hosts reject it)" if k in CLAUDE_CODE_KEYS \
                else "; move it under metadata as a string"
            errors.append("unknown top-level key %r%s" % (k, hint))

    name = as_str(data.get("name"), "name", errors, warnings)
    folder = os.path.basename(os.path.normpath(skill_dir))
    if name is None and "name" not in data:
        errors.append("name is missing (required)")
    elif name is not None:
        res["name"] = name
        if not 1 <= len(name) <= 64:
            errors.append("name is %d characters; it must be 1-64" % len(name))
        if not NAME_RE.match(name):
            errors.append("name %r: use lowercase a-z, digits and single hyphens, no leading or "
                          "trailing hyphen" % name)
        if strict_name and name != folder:
            errors.append("name %r must equal the folder name %r" % (name, folder))
        if re.search(r"anthropic|claude", name):
            warnings.append("name contains a reserved word ('anthropic'/'claude'); claude.ai "
                            "uploads reject it")

    desc = as_str(data.get("description"), "description", errors, warnings)
    check_description(desc, errors, warnings)

    if "license" in data:
        lic = as_str(data["license"], "license", errors, warnings)
        if lic is not None and not lic.strip():
            warnings.append("license is empty; remove it or name the licence")
    if "compatibility" in data:
        comp = as_str(data["compatibility"], "compatibility", errors, warnings)
        if comp is not None and not 1 <= len(comp) <= 500:
            errors.append("compatibility must be 1-500 characters (is %d)" % len(comp))
    if "metadata" in data:
        md = data["metadata"]
        if not isinstance(md, dict):
            if not (isinstance(md, Scalar) and md.value == ""):
                errors.append("metadata must be a mapping of string keys to string values")
        else:
            for k, v in md.items():
                if v.kind != "str":
                    (warnings if "1.1" in v.kind else errors).append(
                        "metadata.%s: YAML reads %r as %s; values must be strings, quote it"
                        % (k, v.value, v.kind))
    if "allowed-tools" in data:
        at = data["allowed-tools"]
        if isinstance(at, list):
            warnings.append("allowed-tools is a list; the spec wants one space-separated string, "
                            "e.g. allowed-tools: Bash(git:*) Read")
        elif isinstance(at, dict):
            errors.append("allowed-tools must be a space-separated string")

    # body
    body_lines = body.split("\n")
    while body_lines and body_lines[-1] == "":
        body_lines.pop()
    n_lines = len(body_lines)
    approx_tokens = (len(body) + 3) // 4
    res["stats"] = {"description_chars": len(desc or ""), "body_lines": n_lines,
                    "body_tokens_approx": approx_tokens}
    if not body.strip():
        warnings.append("body is empty: add the instructions the agent should follow")
    if n_lines > 500:
        warnings.append("body is %d lines; keep SKILL.md under 500 and move detail to "
                        "references/" % n_lines)
    if approx_tokens > 5000:
        warnings.append("body is about %d tokens; keep it under 5,000 and move detail to "
                        "references/" % approx_tokens)
    if raw and not raw.endswith(b"\n"):
        warnings.append("file does not end with a newline")

    seen = set()
    for kind, target, n in refs_in_body(body):
        t = target.split("#", 1)[0]
        if not t or re.match(r"^[a-z][a-z0-9+.-]*:", t, re.I) or t in seen:
            continue
        seen.add(t)
        where = "line %d" % (body_line + n)
        if t.startswith("/"):
            warnings.append("%s: absolute path %r; use a path relative to the skill folder"
                            % (where, t))
            continue
        full = os.path.normpath(os.path.join(skill_dir, t))
        if not (full + os.sep).startswith(os.path.normpath(skill_dir) + os.sep):
            warnings.append("%s: %r points outside the skill folder" % (where, t))
            continue
        if not os.path.exists(full):
            msg = "%s: referenced file %r does not exist" % (where, t)
            (errors if kind == "link" else warnings).append(msg)
        elif t.strip("/").count("/") > 1:
            warnings.append("%s: %r is nested more than one level deep; link files directly "
                            "from SKILL.md" % (where, t))

    sdir = os.path.join(skill_dir, "scripts")
    if os.path.isdir(sdir):
        for root, dirs, files in os.walk(sdir):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d != "__pycache__"]
            for fn in sorted(files):
                p = os.path.join(root, fn)
                rel = os.path.relpath(p, skill_dir)
                if fn.endswith((".md", ".txt", ".json", ".pyc")) or fn.startswith("."):
                    continue
                try:
                    with open(p, "rb") as f:
                        head = f.read(4096)
                except OSError:
                    continue
                if fn.endswith((".py", ".sh", ".bash", ".js", ".mjs", ".ts", ".rb", ".pl")) \
                        or head.startswith(b"#!"):
                    if not head.startswith(b"#!"):
                        warnings.append("%s: no shebang line (e.g. #!/usr/bin/env python3)" % rel)
                    elif head.split(b"\n", 1)[0].endswith(b"\r"):
                        warnings.append("%s: CRLF line endings break the shebang" % rel)
                    mode = os.stat(p).st_mode
                    if not mode & stat.S_IXUSR:
                        warnings.append("%s: not executable (chmod +x)" % rel)

    res["ok"] = not errors
    res["errors"] = errors
    res["warnings"] = warnings
    return res


def find_skills(path):
    """Return (list of (skill_dir, md_path), problem or None)."""
    path = os.path.normpath(path)
    if os.path.isfile(path):
        base = os.path.basename(path)
        if base == "SKILL.md":
            return [(os.path.dirname(os.path.abspath(path)), path)], None
        if base.lower() == "skill.md":
            return [], "%s: the file must be named exactly SKILL.md" % path
        return [], "%s: not a SKILL.md file or a folder" % path
    if not os.path.isdir(path):
        return [], "%s: no such file or folder (cwd %s)" % (path, os.getcwd())
    md = os.path.join(path, "SKILL.md")
    if os.path.isfile(md):
        return [(path, md)], None
    if any(os.path.isfile(os.path.join(path, x)) for x in ("skill.md", "Skill.md")):
        return [], "%s: the file must be named exactly SKILL.md" % path
    found = []
    for d in sorted(os.listdir(path)):
        sd = os.path.join(path, d)
        if d.startswith(".") or d in ("node_modules",) or not os.path.isdir(sd):
            continue
        if os.path.isfile(os.path.join(sd, "SKILL.md")):
            found.append((sd, os.path.join(sd, "SKILL.md")))
        elif any(os.path.isfile(os.path.join(sd, x)) for x in ("skill.md", "Skill.md")):
            found.append((sd, None))
    if not found:
        return [], "%s: no SKILL.md here or in its direct subfolders" % path
    return found, None


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="check_skill.py",
        description="Validate Agent Skills: frontmatter rules (name, description, the six spec "
                    "keys), file format (LF, no BOM, '---' on line 1), body size, file "
                    "references and script conventions. JSON on stdout by default.",
        epilog="PATH may be a skill folder, its SKILL.md, or a skills root whose subfolders "
               "are skills. Exit codes: 0 valid (warnings allowed); 1 errors found (or "
               "warnings with --strict); 2 usage error or nothing to check.")
    ap.add_argument("paths", nargs="+", metavar="PATH")
    ap.add_argument("--format", choices=["json", "text"], default="json")
    ap.add_argument("--strict", action="store_true", help="treat warnings as failures")
    args = ap.parse_args(argv)
    try:
        sys.stdout.reconfigure(encoding="utf-8")
    except (AttributeError, ValueError):
        pass

    targets, problems = [], []
    for p in args.paths:
        found, prob = find_skills(p)
        targets.extend(found)
        if prob:
            problems.append(prob)
    if not targets:
        for p in problems:
            eprint("error: " + p)
        return 2

    results = []
    for sd, md in targets[:MAX_SKILLS]:
        if md is None:
            results.append({"path": sd, "ok": False, "warnings": [],
                            "errors": ["file must be named exactly SKILL.md"]})
        else:
            results.append(check_skill(sd, md))
    names = {}
    for r in results:
        if r.get("name"):
            names.setdefault(r["name"], []).append(r["path"])
    for n, paths in names.items():
        if len(paths) > 1:
            for r in results:
                if r.get("name") == n:
                    r["warnings"].append("name %r is also used by %s" %
                                         (n, ", ".join(p for p in paths if p != r["path"])))
    n_err = sum(len(r["errors"]) for r in results)
    n_warn = sum(len(r["warnings"]) for r in results)
    out = {"ok": n_err == 0 and not (args.strict and n_warn), "skills_checked": len(results),
           "errors": n_err, "warnings": n_warn}
    if len(targets) > MAX_SKILLS:
        out["not_checked"] = len(targets) - MAX_SKILLS
    if problems:
        out["path_problems"] = problems
    out["skills"] = results
    # keep the report under what tool runners pass back (often 30 KB)
    def size():
        return len(json.dumps(out, indent=1, ensure_ascii=False))

    if size() > OUTPUT_BUDGET:
        out["skills_without_findings"] = [r.get("name") or r["path"] for r in results
                                          if not r["errors"] and not r["warnings"]]
        results = [r for r in results if r["errors"] or r["warnings"]]
        out["skills"] = results
    if size() > OUTPUT_BUDGET:
        for r in results:
            r.pop("stats", None)
            for key in ("errors", "warnings"):
                if len(r[key]) > 5:
                    r[key] = r[key][:5] + ["... %d more" % (len(r[key]) - 5)]
        while size() > OUTPUT_BUDGET and len(results) > 1:
            results.pop()
            out["skills_not_shown"] = out.get("skills_not_shown", 0) + 1

    if args.format == "json":
        print(json.dumps(out, indent=1, ensure_ascii=False))
    else:
        for r in results:
            label = r.get("name") or os.path.basename(r["path"])
            status = "ok" if not r["errors"] else "INVALID"
            st = r.get("stats")
            extra = " (%d body lines, ~%d tokens)" % (st["body_lines"], st["body_tokens_approx"]) \
                if st else ""
            print("%s: %s%s  [%s]" % (label, status, extra, r["path"]))
            for e in r["errors"]:
                print("  error: " + e)
            for w in r["warnings"]:
                print("  warning: " + w)
        if out.get("skills_without_findings"):
            print("no findings: " + ", ".join(out["skills_without_findings"]))
        if out.get("skills_not_shown"):
            print("%d more skill(s) with findings not shown; check them one by one"
                  % out["skills_not_shown"])
        for p in problems:
            print("path: " + p)
        print("%d skill(s), %d error(s), %d warning(s)" % (out["skills_checked"], n_err, n_warn))
    if n_err or (args.strict and n_warn):
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
