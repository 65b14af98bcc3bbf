#!/usr/bin/env python3
"""Profile a CSV, TSV, JSON Lines or JSON-array file and print a compact JSON summary.

For every column: inferred type, null and distinct counts, min/max (numbers, dates,
string lengths), most common values and a few samples. For the file: row and column
counts, delimiter, and a list of suspected problems (ragged rows, mixed types,
duplicate headers or rows, whitespace, leading zeros, bad encoding, ...).

Standard library only (Python 3.8+). Reads the file once, streaming; memory is bounded
by the distinct-value cap, not by the file size.

Exit codes: 0 profiled; 1 problems found and --strict given; 2 usage or I/O error;
3 the file could not be parsed (a partial profile may still be printed).
"""

import argparse
import csv
import io
import json
import os
import re
import sys
import time
from collections import Counter
from datetime import date, datetime

NULL_TOKENS = {"", "na", "n/a", "nan", "null", "none", "nil", "#n/a", "(null)"}
RE_INT = re.compile(r"^[+-]?\d+$")
RE_FLOAT = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$")
RE_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
RE_DATETIME = re.compile(
    r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$")
RE_OTHER_DATE = re.compile(r"^\d{1,2}[/.]\d{1,2}[/.]\d{2,4}$")

DISTINCT_CAP = 10000      # distinct values tracked per column
DUP_ROW_CAP = 2_000_000   # rows tracked for duplicate detection
SAMPLE_CHARS = 60         # longest sample value shown
MAX_PROBLEMS = 25
TIME_NOTE = ("time limit of %gs reached after %d rows: 'rows' counts only those; rerun with "
             "a smaller --max-rows (rows past it are only counted, which is fast) or a larger "
             "--time-limit")


def eprint(*a):
    print(*a, file=sys.stderr)


def fail(msg, code):
    """Report a fatal error on stderr and return the exit code."""
    eprint("error: " + msg)
    return code


def clip(s, n=SAMPLE_CHARS):
    s = str(s)
    return s if len(s) <= n else s[: n - 1] + "\u2026"


def infer_str(s):
    """Return (type, parsed value) for a CSV cell. type 'null' for empty/NA tokens."""
    t = s.strip()
    if t.lower() in NULL_TOKENS:
        return "null", None
    tl = t.lower()
    if tl in ("true", "false"):
        return "bool", tl == "true"
    if RE_INT.match(t):
        return "int", int(t)
    if RE_FLOAT.match(t):
        try:
            return "float", float(t)
        except ValueError:
            pass
    if RE_DATE.match(t):
        try:
            date.fromisoformat(t)
            return "date", t
        except ValueError:
            return "string", t
    if RE_DATETIME.match(t):
        try:
            datetime.fromisoformat(t.replace("Z", "+00:00"))
            return "datetime", t
        except ValueError:
            return "string", t
    if RE_OTHER_DATE.match(t):
        return "date_nonstandard", t
    return "string", t


def infer_json(v):
    if v is None:
        return "null", None
    if isinstance(v, bool):
        return "bool", v
    if isinstance(v, int):
        return "int", v
    if isinstance(v, float):
        return "float", v
    if isinstance(v, str):
        if v.strip() == "":
            return "null", None
        t, p = infer_str(v)
        # JSON strings stay strings unless they look like dates
        if t in ("date", "datetime", "date_nonstandard"):
            return t, p
        return "string", v
    if isinstance(v, list):
        return "array", v
    if isinstance(v, dict):
        return "object", v
    return "string", str(v)


class Column:
    __slots__ = ("name", "nulls", "missing", "types", "type_example", "counts", "capped",
                 "num_min", "num_max", "num_sum", "num_n", "len_min", "len_max",
                 "d_min", "d_max", "ws", "lead0", "lead0_example", "newlines", "bad_utf8")

    def __init__(self, name):
        self.name = name
        self.nulls = 0
        self.missing = 0
        self.types = Counter()
        self.type_example = {}
        self.counts = Counter()
        self.capped = False
        self.num_min = self.num_max = None
        self.num_sum = 0.0
        self.num_n = 0
        self.len_min = self.len_max = None
        self.d_min = self.d_max = None
        self.ws = 0
        self.lead0 = 0
        self.lead0_example = None
        self.newlines = 0
        self.bad_utf8 = 0

    def add(self, raw, typ, val):
        if typ == "null":
            self.nulls += 1
            return
        self.types[typ] += 1
        if typ not in self.type_example:
            self.type_example[typ] = raw
        key = raw if isinstance(raw, str) else json.dumps(raw, sort_keys=True, default=str)
        if key in self.counts or len(self.counts) < DISTINCT_CAP:
            self.counts[key] += 1
        else:
            self.capped = True
        if isinstance(raw, str):
            if raw != raw.strip():
                self.ws += 1
            if "\n" in raw or "\r" in raw:
                self.newlines += 1
            if "\ufffd" in raw:
                self.bad_utf8 += 1
        if typ in ("int", "float"):
            if self.num_min is None or val < self.num_min:
                self.num_min = val
            if self.num_max is None or val > self.num_max:
                self.num_max = val
            self.num_sum += val
            self.num_n += 1
            if typ == "int" and isinstance(raw, str):
                digits = raw.strip().lstrip("+-")
                if len(digits) > 1 and digits[0] == "0":
                    self.lead0 += 1
                    if self.lead0_example is None:
                        self.lead0_example = raw.strip()
        elif typ in ("date", "datetime"):
            if self.d_min is None or val < self.d_min:
                self.d_min = val
            if self.d_max is None or val > self.d_max:
                self.d_max = val
        elif typ == "string":
            n = len(val)
            if self.len_min is None or n < self.len_min:
                self.len_min = n
            if self.len_max is None or n > self.len_max:
                self.len_max = n

    FAMILY = {"int": "number", "float": "number", "date": "date", "datetime": "date",
              "date_nonstandard": "date"}

    def families(self):
        fam = Counter()
        example = {}
        for t, n in self.types.most_common():
            f = self.FAMILY.get(t, t)
            fam[f] += n
            example.setdefault(f, self.type_example[t])
        return fam, example

    def resolved_type(self):
        ts = set(self.types)
        if not ts:
            return "empty"
        if ts <= {"int", "float"}:
            return "float" if "float" in ts else "int"
        if ts <= {"date", "datetime", "date_nonstandard"}:
            return "datetime" if "datetime" in ts else "date"
        if len(ts) == 1:
            return ts.pop()
        return "mixed"

    def profile(self, top_n, n_samples, problems):
        t = self.resolved_type()
        non_null = sum(self.types.values())
        out = {"name": self.name, "type": t, "non_null": non_null, "nulls": self.nulls}
        if self.missing:
            out["missing"] = self.missing
        out["distinct"] = len(self.counts)
        if self.capped:
            out["distinct_capped"] = True
        if non_null and not self.capped and len(self.counts) == non_null and non_null > 1:
            out["unique"] = True
        if self.num_n and t in ("int", "float", "mixed"):
            out["min"] = self.num_min
            out["max"] = self.num_max
            out["mean"] = float("%.6g" % (self.num_sum / self.num_n))
        if self.d_min is not None and t in ("date", "datetime", "mixed") \
                and "date_nonstandard" not in self.types:
            out["min_date"] = self.d_min
            out["max_date"] = self.d_max
        if self.len_min is not None and t in ("string", "mixed"):
            out["min_len"] = self.len_min
            out["max_len"] = self.len_max
        if t == "mixed":
            out["types"] = dict(self.families()[0].most_common())
        if self.counts:
            top = self.counts.most_common(top_n)
            if top[0][1] > 1:
                out["top"] = [[clip(v), c] for v, c in top]
            out["samples"] = [clip(v) for v in list(self.counts)[:n_samples]]

        q = "column %r: " % self.name
        if t == "empty":
            problems.append(q + "all values are null/empty")
        elif t == "mixed":
            fam, example = self.families()
            major = fam.most_common(1)[0][0]
            minor = ", ".join("%s %d e.g. %r" % (k, c, clip(example[k], 30))
                              for k, c in fam.most_common() if k != major)
            problems.append(q + "mixed types: %s %d; %s" % (major, fam[major], minor))
        elif len(self.counts) == 1 and non_null > 1 and not self.capped:
            problems.append(q + "constant value %r" % clip(next(iter(self.counts)), 30))
        if "date_nonstandard" in self.types:
            problems.append(q + "%d non-ISO dates e.g. %r (day/month order ambiguous)"
                            % (self.types["date_nonstandard"],
                               clip(self.type_example["date_nonstandard"], 30)))
        if self.lead0:
            problems.append(q + "%d numbers with leading zeros e.g. %r: an identifier or code, "
                            "keep as text" % (self.lead0, self.lead0_example))
        if self.ws:
            problems.append(q + "%d values with leading/trailing whitespace" % self.ws)
        if self.newlines:
            problems.append(q + "%d values contain line breaks" % self.newlines)
        if self.bad_utf8:
            problems.append(q + "%d values had undecodable bytes (try --encoding cp1252 "
                            "or latin-1)" % self.bad_utf8)
        return out


def detect_format(path, head, fmt):
    if fmt != "auto":
        return fmt
    ext = os.path.splitext(path.lower())[1] if path != "-" else ""
    if ext in (".jsonl", ".ndjson", ".jsonlines"):
        return "jsonl"
    if ext in (".tsv", ".tab"):
        return "tsv"
    if ext == ".json":
        lines = [x for x in head.splitlines() if x.strip()]
        if len(lines) > 1 and lines[0].lstrip().startswith("{"):
            try:
                json.loads(lines[0])
                return "jsonl"   # one object per line despite the .json name
            except json.JSONDecodeError:
                pass
        return "json"
    if ext in (".csv", ".psv", ".txt", ".dat"):
        return "csv"
    s = head.lstrip()
    if s.startswith("{"):
        return "jsonl"
    if s.startswith("["):
        return "json"
    return "csv"


def sniff_delimiter(head, path, given):
    if given:
        return {"\\t": "\t", "tab": "\t"}.get(given, given)
    if path.lower().endswith((".tsv", ".tab")):
        return "\t"
    if path.lower().endswith(".psv"):
        return "|"
    sample = "\n".join(head.splitlines()[:50])
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        first = sample.splitlines()[0] if sample else ""
        counts = {d: first.count(d) for d in ",;\t|"}
        best = max(counts, key=counts.get)
        return best if counts[best] else ","


def bom_encoding(prefix):
    if prefix.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "utf-32"
    if prefix.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    return None


def open_text(path, encoding, auto):
    """Open for text reading; with auto, honour a UTF-16/32 byte-order mark."""
    if path == "-":
        raw = io.BytesIO(sys.stdin.buffer.read())
    else:
        raw = open(path, "rb")
    if auto:
        encoding = bom_encoding(raw.read(4)) or encoding
        raw.seek(0)
    return io.TextIOWrapper(raw, encoding=encoding, errors="replace", newline=""), encoding


def profile_csv(f, args, delim, res, problems):
    csv.field_size_limit(1 << 28)
    reader = csv.reader(f, delimiter=delim)
    header = None
    cols = []
    ragged = []
    ragged_n = 0
    blank = 0
    dup_seen = set()
    dup_n = 0
    dup_first = None
    rows = profiled = 0
    max_rows = args.max_rows
    selected = None
    try:
        for rec in reader:
            if not rec or (len(rec) == 1 and rec[0] == ""):
                blank += 1
                continue
            if header is None:
                if args.no_header:
                    header = ["column_%d" % (i + 1) for i in range(len(rec))]
                else:
                    header = [h.strip() for h in rec]
                    header[0] = header[0].lstrip("\ufeff")
                    looks_data = all(infer_str(h)[0] in ("int", "float", "date", "datetime")
                                     for h in header if h)
                    if looks_data and any(header):
                        problems.append("header row looks like data (all numbers/dates); "
                                        "rerun with --no-header if there is no header")
                    for i, h in enumerate(header):
                        if "\n" in h or "\r" in h:
                            problems.append("header: column %d name contains a line break "
                                            "(unbalanced quote?)" % (i + 1))
                        if not h:
                            header[i] = "column_%d" % (i + 1)
                            problems.append("header: column %d has an empty name" % (i + 1))
                    c = Counter(header)
                    for h, n in c.items():
                        if n > 1:
                            problems.append("header: name %r appears %d times" % (h, n))
                cols = [Column(h) for h in header]
                selected = pick_columns(header, args, res, problems)
                if args.no_header:
                    pass  # fall through: this record is data
                else:
                    continue
            if rows and rows % 5000 == 0 and time.monotonic() > args.deadline:
                res["stopped_early"] = TIME_NOTE % (args.time_limit, rows)
                break
            rows += 1
            if len(rec) != len(header):
                ragged_n += 1
                if len(ragged) < 5:
                    ragged.append("line %d: %d fields" % (reader.line_num, len(rec)))
            if max_rows and profiled >= max_rows:
                continue
            profiled += 1
            if rows <= DUP_ROW_CAP:
                h = hash(tuple(rec))
                if h in dup_seen:
                    dup_n += 1
                    if dup_first is None:
                        dup_first = reader.line_num
                else:
                    dup_seen.add(h)
            for i in selected:
                col = cols[i]
                if i < len(rec):
                    raw = rec[i]
                    typ, val = infer_str(raw)
                    col.add(raw, typ, val)
                else:
                    col.missing += 1
    except csv.Error as e:
        problems.insert(0, "parse error near line %d: %s" % (reader.line_num, e))
        res["complete"] = False
    res["delimiter"] = delim
    res["header"] = not args.no_header
    res["rows"] = rows
    if profiled != rows:
        res["rows_profiled"] = profiled
    res["columns"] = len(header or [])
    if ragged_n:
        problems.insert(0, "ragged rows: %d rows do not have %d fields (%s)"
                        % (ragged_n, len(header), "; ".join(ragged)))
        res["ragged_rows"] = ragged_n
    if dup_n:
        problems.append("duplicate rows: %d exact repeats (first at line %d)" % (dup_n, dup_first))
        res["duplicate_rows"] = dup_n
    if blank:
        problems.append("%d blank lines skipped" % blank)
    return cols, selected or []


def pick_columns(names, args, res, problems):
    idx = list(range(len(names)))
    if args.columns:
        want = [c.strip() for c in args.columns.split(",") if c.strip()]
        pos = {n: i for i, n in reversed(list(enumerate(names)))}
        unknown = [w for w in want if w not in pos]
        if unknown:
            eprint("warning: unknown column(s): %s" % ", ".join(unknown))
            problems.append("requested columns not found: %s" % ", ".join(unknown))
        idx = [pos[w] for w in want if w in pos]
    if args.max_columns and len(idx) > args.max_columns:
        omitted = [names[i] for i in idx[args.max_columns:]]
        res["columns_omitted"] = len(omitted)
        res["columns_omitted_names"] = [clip(n, 40) for n in omitted[:40]]
        idx = idx[: args.max_columns]
    return idx


def iter_json_records(f, fmt, problems, res):
    if fmt == "json":
        try:
            data = json.load(f)
        except json.JSONDecodeError as e:
            problems.insert(0, "invalid JSON: %s" % e)
            res["complete"] = False
            return
        if isinstance(data, dict):
            # common wrapper shape: {"data": [...]} / {"items": [...]} / {"rows": [...]}
            lists = [(k, v) for k, v in data.items() if isinstance(v, list) and v]
            if lists:
                k, v = max(lists, key=lambda kv: len(kv[1]))
                res["json_path"] = k
                data = v
            else:
                data = [data]
        if not isinstance(data, list):
            data = [data]
        for i, rec in enumerate(data, 1):
            yield i, rec
        return
    for i, line in enumerate(f, 1):
        s = line.strip()
        if not s:
            yield i, _BLANK
            continue
        try:
            yield i, json.loads(s)
        except json.JSONDecodeError as e:
            yield i, _Invalid(str(e))


class _Invalid:
    def __init__(self, msg):
        self.msg = msg


_BLANK = object()


def profile_json(f, fmt, args, res, problems):
    cols = {}
    order = []
    rows = profiled = 0
    bad = []
    bad_n = 0
    nonobj = 0
    blank = 0
    dup_seen = set()
    dup_n = 0
    for lineno, rec in iter_json_records(f, fmt, problems, res):
        if rec is _BLANK:
            blank += 1
            continue
        if isinstance(rec, _Invalid):
            bad_n += 1
            if len(bad) < 3:
                bad.append("line %d: %s" % (lineno, clip(rec.msg, 50)))
            continue
        if not isinstance(rec, dict):
            nonobj += 1
            rec = {"value": rec}
        if rows and rows % 5000 == 0 and time.monotonic() > args.deadline:
            res["stopped_early"] = TIME_NOTE % (args.time_limit, rows)
            break
        rows += 1
        if args.max_rows and profiled >= args.max_rows:
            continue
        profiled += 1
        if rows <= DUP_ROW_CAP:
            h = hash(json.dumps(rec, sort_keys=True, default=str))
            if h in dup_seen:
                dup_n += 1
            else:
                dup_seen.add(h)
        for k in rec:
            if k not in cols:
                c = Column(k)
                c.missing = profiled - 1   # absent in every earlier row
                cols[k] = c
                order.append(k)
        for k in order:
            c = cols[k]
            if k in rec:
                v = rec[k]
                typ, val = infer_json(v)
                c.add(v, typ, val)
            else:
                c.missing += 1
    res["rows"] = rows
    if profiled != rows:
        res["rows_profiled"] = profiled
    res["columns"] = len(order)
    if bad_n:
        problems.insert(0, "invalid JSON lines: %d (%s)" % (bad_n, "; ".join(bad)))
        res["invalid_lines"] = bad_n
    if nonobj:
        problems.append("%d records are not JSON objects (profiled as column 'value')" % nonobj)
    if dup_n:
        problems.append("duplicate records: %d exact repeats" % dup_n)
        res["duplicate_rows"] = dup_n
    if blank:
        problems.append("%d blank lines skipped" % blank)
    sparse = [(k, cols[k].missing) for k in order if cols[k].missing]
    if sparse:
        shown = ", ".join("%s (%d)" % (clip(k, 30), n) for k, n in sparse[:10])
        more = " and %d more" % (len(sparse) - 10) if len(sparse) > 10 else ""
        problems.append("keys absent in some records (count): %s%s" % (shown, more))
    col_list = [cols[k] for k in order]
    selected = pick_columns(order, args, res, problems)
    return col_list, selected


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="profile.py",
        description="Profile a CSV/TSV/JSONL/JSON file: per-column types, nulls, distinct "
                    "counts, min/max, top values and suspected data problems, as compact JSON "
                    "on stdout.",
        epilog="Exit codes: 0 ok; 1 problems found with --strict; 2 usage/I/O error; "
               "3 parse failure (partial JSON may still be printed). "
               "Example: profile.py data/orders.csv --columns id,total --max-rows 100000")
    ap.add_argument("path", help="file to profile, or - to read standard input")
    ap.add_argument("--format", choices=["auto", "csv", "tsv", "jsonl", "json"], default="auto",
                    help="input format (default: from extension, then content)")
    ap.add_argument("--delimiter", help="CSV delimiter, e.g. ';' or '\\t' (default: sniffed)")
    ap.add_argument("--no-header", action="store_true",
                    help="CSV has no header row; columns become column_1, column_2, ...")
    ap.add_argument("--encoding", default=None,
                    help="text encoding, e.g. cp1252, latin-1, utf-16 (default: UTF-8, or "
                         "UTF-16/32 when the file starts with a byte-order mark)")
    ap.add_argument("--max-rows", type=int, default=200000,
                    help="profile at most N rows (all rows are still counted); 0 = no limit "
                         "(default 200000)")
    ap.add_argument("--columns", help="comma-separated column names to profile (default: all)")
    ap.add_argument("--max-columns", type=int, default=40,
                    help="profile at most N columns, list the rest by name (default 40; 0 = all)")
    ap.add_argument("--top", type=int, default=3, help="most common values per column (default 3)")
    ap.add_argument("--samples", type=int, default=3, help="sample values per column (default 3)")
    ap.add_argument("--time-limit", type=float, default=40,
                    help="stop reading after this many seconds and report what was seen "
                         "(default 40; 0 = no limit)")
    ap.add_argument("--pretty", action="store_true", help="indent the JSON output")
    ap.add_argument("--strict", action="store_true", help="exit 1 when any problem is found")
    args = ap.parse_args(argv)
    try:
        sys.stdout.reconfigure(encoding="utf-8")
    except (AttributeError, ValueError):
        pass

    if args.path != "-" and not os.path.isfile(args.path):
        return fail("no such file: %s (cwd %s)" % (args.path, os.getcwd()), 2)
    try:
        "".encode(args.encoding or "utf-8")
    except LookupError:
        return fail("unknown encoding %r" % args.encoding, 2)
    args.deadline = time.monotonic() + args.time_limit if args.time_limit > 0 else float("inf")
    if args.max_rows < 0 or args.max_columns < 0 or args.top < 0 or args.samples < 0 \
            or args.time_limit < 0:
        return fail("numeric options must be >= 0", 2)

    try:
        f, encoding = open_text(args.path, args.encoding or "utf-8-sig", args.encoding is None)
    except OSError as e:
        return fail("cannot read %s: %s" % (args.path, e), 2)

    with f:
        head = f.read(65536)
        f.seek(0)
        fmt = detect_format(args.path, head, args.format)
        res = {"file": args.path, "format": fmt,
               "encoding": "utf-8" if encoding == "utf-8-sig" else encoding}
        if args.path != "-":
            res["bytes"] = os.path.getsize(args.path)
        problems = []
        if not head.strip():
            res.update(rows=0, columns=0, problems=["file is empty"], column_profiles=[])
            emit(res, args)
            eprint("error: %s is empty" % args.path)
            return 3
        if "\x00" in head:
            eprint("warning: NUL bytes found; the file may be binary or UTF-16 "
                   "(try --encoding utf-16)")
            problems.append("NUL bytes in the data: binary file or wrong --encoding (UTF-16?)")
        try:
            if fmt in ("csv", "tsv"):
                delim = "\t" if fmt == "tsv" and not args.delimiter else \
                    sniff_delimiter(head, args.path, args.delimiter)
                if len(delim) != 1:
                    return fail("delimiter must be one character, got %r" % delim, 2)
                cols, selected = profile_csv(f, args, delim, res, problems)
            else:
                cols, selected = profile_json(f, fmt, args, res, problems)
        except MemoryError:
            return fail("out of memory; use --max-rows or --columns", 3)
        except OSError as e:
            return fail("reading failed: %s" % e, 2)

    col_problems = []
    profiles = [cols[i].profile(args.top, args.samples, col_problems) for i in selected]
    if res.get("rows") == 0:
        problems.append("no data rows" + (" (header only)" if res.get("header") else ""))
    else:
        problems.extend(col_problems)
    if len(problems) > MAX_PROBLEMS:
        extra = len(problems) - MAX_PROBLEMS
        problems = problems[:MAX_PROBLEMS] + ["... %d more problems not shown" % extra]
    res["problems"] = problems
    res["column_profiles"] = profiles
    emit(res, args)
    if res.get("complete") is False:
        return 3
    if args.strict and problems:
        return 1
    return 0


def emit(res, args):
    if args.pretty:
        s = json.dumps(res, indent=1, ensure_ascii=False, default=str)
    else:
        s = json.dumps(res, separators=(",", ":"), ensure_ascii=False, default=str)
    sys.stdout.write(s + "\n")


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
