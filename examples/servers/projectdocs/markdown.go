package main

import (
	"strings"
)

// document is the little structure this server needs from a Markdown file.
// It is a line-based reading of CommonMark's ATX headings ("# Title"), which
// covers what READMEs and docs folders use in practice; setext headings and
// other corner cases are treated as plain text.
type document struct {
	Title    string    // first level-1 heading, else front matter title, else first heading
	Intro    string    // first prose paragraph, joined onto one line
	Sections []section // the preamble (if any text precedes the first heading), then one per heading
}

// section is a heading and the text up to the next heading.
type section struct {
	Heading string // "" for the preamble before the first heading
	Level   int    // 1-6; 0 for the preamble
	Line    int    // 1-based line of the heading (or of the preamble's start)
	Offset  int    // byte offset of that line, usable as a project_doc_read offset
	Body    string // text after the heading line, code blocks included
}

func parseMarkdown(text string) document {
	var (
		doc        document
		fmTitle    string
		firstHead  string
		cur        = section{Line: 1}
		body       strings.Builder
		fence      string // the opening fence ("```" or "~~~") while inside a code block
		inIntro    bool
		introDone  bool
		intro      []string
		lineOffset int
	)
	flush := func() {
		cur.Body = body.String()
		if cur.Level > 0 || strings.TrimSpace(cur.Body) != "" {
			doc.Sections = append(doc.Sections, cur)
		}
		body.Reset()
	}

	lines := strings.SplitAfter(text, "\n")
	start := 0
	if end := frontMatterEnd(lines); end > 0 {
		fmTitle = frontMatterTitle(lines[1 : end-1])
		for _, l := range lines[:end] {
			lineOffset += len(l)
		}
		start = end
		cur.Line, cur.Offset = end+1, lineOffset
	}

	for i := start; i < len(lines); i++ {
		raw := lines[i]
		offset := lineOffset
		lineOffset += len(raw)
		line := strings.TrimRight(raw, "\r\n")
		if i == 0 {
			line = strings.TrimPrefix(line, "\ufeff") // byte order mark
		}
		trimmed := strings.TrimSpace(line)

		if fence != "" || strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			switch {
			case fence == "":
				fence = trimmed[:3]
			case strings.HasPrefix(trimmed, fence):
				fence = ""
			}
			body.WriteString(line + "\n")
			if inIntro {
				introDone = true
			}
			continue
		}

		if level, h, ok := atxHeading(line); ok {
			flush()
			cur = section{Heading: h, Level: level, Line: i + 1, Offset: offset}
			if level == 1 && doc.Title == "" {
				doc.Title = h
			}
			if firstHead == "" {
				firstHead = h
			}
			if inIntro {
				introDone = true
			}
			continue
		}
		body.WriteString(line + "\n")

		if introDone {
			continue
		}
		switch {
		case trimmed == "":
			if inIntro {
				introDone = true
			}
		case inIntro || isProse(trimmed):
			inIntro = true
			intro = append(intro, trimmed)
		}
	}
	flush()

	doc.Intro = strings.Join(intro, " ")
	if doc.Title == "" {
		doc.Title = fmTitle
	}
	if doc.Title == "" {
		doc.Title = firstHead
	}
	return doc
}

// atxHeading parses "## Text ##" style headings (up to three leading spaces).
func atxHeading(line string) (level int, text string, ok bool) {
	s := strings.TrimLeft(line, " ")
	if len(line)-len(s) > 3 {
		return 0, "", false // indented code, not a heading
	}
	for level < len(s) && s[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(s) && s[level] != ' ' && s[level] != '\t') {
		return 0, "", false
	}
	text = strings.TrimSpace(s[level:])
	// An optional closing sequence of #s is not part of the text.
	if t := strings.TrimRight(text, "#"); t == "" || strings.HasSuffix(t, " ") {
		text = strings.TrimSpace(t)
	}
	return level, text, true
}

// isProse reports whether a line can start the intro paragraph. Badges,
// images, HTML and tables at the top of READMEs are not a summary.
func isProse(line string) bool {
	for _, p := range []string{"![", "[![", "<", "|", "---", "***", "==="} {
		if strings.HasPrefix(line, p) {
			return false
		}
	}
	return true
}

// frontMatterEnd returns the number of lines in a leading YAML front matter
// block ("---" ... "---"), or 0 if there is none.
func frontMatterEnd(lines []string) int {
	if len(lines) == 0 || strings.TrimSpace(strings.TrimPrefix(lines[0], "\ufeff")) != "---" {
		return 0
	}
	for i := 1; i < len(lines); i++ {
		if t := strings.TrimSpace(lines[i]); t == "---" || t == "..." {
			return i + 1
		}
	}
	return 0
}

// frontMatterTitle finds a top-level "title:" in front matter without a YAML
// parser; the title is all this server wants from it.
func frontMatterTitle(lines []string) string {
	for _, l := range lines {
		if v, ok := strings.CutPrefix(l, "title:"); ok {
			return strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return ""
}
