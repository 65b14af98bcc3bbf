package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/cmd/toolsearch/internal/hosts"
	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/scan"
	"github.com/toolsearch/toolsearch/loader/skill"
	"github.com/toolsearch/toolsearch/loader/trust"
	"github.com/toolsearch/toolsearch/loader/upstream"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/web"
)

// openApprovals opens the approvals store beside the upstreams' last known
// catalogs; without a cache directory, approvals last as long as the
// process.
func openApprovals(log *slog.Logger) *trust.Store {
	dir, err := upstream.DefaultCacheDir()
	if err != nil {
		log.Warn("approvals will not be kept", "err", err)
		return trust.Open("", log)
	}
	return trust.Open(filepath.Join(dir, trust.FileName), log)
}

// reviewCommand is the command that shows a held tool to a person, as the
// model relays it to the user: run where this toolsearch runs, with the
// files it uses (the configuration found there, and the last known catalog
// of a server whose entry names something relative to the folder). The
// model is told to have the user review, never the command that approves:
// a poisoned server would have the model run it.
func (a *app) reviewCommand(name string) string {
	cmd := a.commandLine("review", name)
	if wd, err := os.Getwd(); err == nil {
		cmd = hosts.ShellJoin("cd", wd) + " && " + cmd
	}
	return cmd
}

// skillApproved reports whether a person approved a flagged skill.
func (a *app) skillApproved(path, digest string) bool {
	return a.approvals.Approved(skill.ApprovalKey, path, digest)
}

// watchApprovals follows the approvals file until ctx ends, so that an
// approval made elsewhere (`toolsearch approve`, another server's status
// page) releases tools and skills at once. Upstream servers follow it on
// their own.
func (a *app) watchApprovals(ctx context.Context) {
	go a.approvals.Watch(ctx)
	if a.skills != nil {
		cancel := a.approvals.Subscribe(a.skills.Redecide)
		context.AfterFunc(ctx, cancel)
	}
}

// trustFlags choose where approve, review and scan read the catalog from.
type trustFlags struct {
	connect bool
	wait    *upstreamFlags
}

func addTrustFlags(fs *flag.FlagSet) *trustFlags {
	f := &trustFlags{wait: addUpstreamFlags(fs, false)}
	fs.BoolVar(&f.connect, "connect", false, "connect to the upstream servers and list their tools now, instead of reading the last known catalogs (what a running toolsearch saw last)")
	return f
}

// load brings in the upstreams as the flags say: their last known catalogs
// by default, which a running server keeps current.
func (f *trustFlags) load(ctx context.Context, a *app) {
	if f.connect {
		a.settleUpstreams(ctx, f.wait.wait)
		return
	}
	a.loadPersistedUpstreams()
}

// pending is a held definition of a server (a tool, its instructions, a
// prompt, a resource or a template) or a withheld skill.
type pending struct {
	// Name is SERVER__TOOL, skills/PATH, or for a server's other
	// definitions SERVER:instructions, SERVER:prompt:NAME,
	// SERVER:resource:URI or SERVER:template:URITEMPLATE.
	Name   string         `json:"name"`
	Kind   string         `json:"kind"`
	Digest string         `json:"digest"`
	Reason string         `json:"reason"`
	Change string         `json:"change,omitempty"`
	Found  []scan.Finding `json:"findings,omitempty"`
	Diff   string         `json:"diff,omitempty"`

	server, tool string         // for a server's definition (tool: its own name or approvals entry)
	entry        *catalog.Entry // for a server's definition
	skill        *skill.Skill   // for a skill
	// previous and current are, for a server's definition other than a
	// tool, the one approved (nil if none) and the one held.
	previous, current any
}

// pendingDiff shows a held tool's approved and pending definitions; a
// skill has none to compare.
func (a *app) pendingDiff(p pending) string {
	switch {
	case p.entry == nil:
		return ""
	case p.Kind != "tool":
		return trust.DiffValues(p.previous, p.current)
	}
	return trust.Diff(p.entry.Quarantine.Previous, p.entry.Tool)
}

// shortDigest is how much of a digest the CLI shows: the least it
// accepts (trust.MinDigestPrefix).
const shortDigest = trust.MinDigestPrefix

// approveCommand is what approves exactly the definition reviewed.
func (p pending) approveCommand() string {
	return fmt.Sprintf("toolsearch approve %s@%s", p.Name, p.Digest[:min(shortDigest, len(p.Digest))])
}

// collectPending lists the held tools and withheld skills.
func (a *app) collectPending(withDiff bool) []pending {
	var out []pending
	if a.upstreams != nil {
		for _, p := range a.upstreams.Pending() {
			q := p.Entry.Quarantine
			pd := pending{Name: p.Entry.Name, Kind: p.Kind, Digest: p.Entry.Digest, Reason: q.Reason, Change: q.Summary, Found: q.Findings,
				server: p.Server, tool: p.Tool, entry: p.Entry, previous: p.Previous, current: p.Current}
			if withDiff {
				pd.Diff = a.pendingDiff(pd)
			}
			out = append(out, pd)
		}
	}
	if a.skills != nil {
		for _, sk := range a.skills.Withheld() {
			out = append(out, pending{Name: "skills/" + sk.Path, Kind: "skill", Digest: sk.Digest(), Reason: trust.ReasonFlagged, Found: sk.Scan(), skill: sk})
		}
	}
	return out
}

func runReview(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("review", os.Stderr)
	sf := addSourceFlags(fs, flagSkills|flagTools|flagMCPConfig, "warn")
	tf := addTrustFlags(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	a, names, err := parseAndOpen(fs, sf, args)
	if err != nil {
		return err
	}
	defer a.close(ctx)
	tf.load(ctx, a)
	var list []pending
	for _, p := range a.collectPending(true) {
		if len(names) == 0 || slices.ContainsFunc(names, func(n string) bool { return matchesPending(n, p) }) {
			list = append(list, p)
		}
	}
	if *asJSON {
		if list == nil {
			list = []pending{}
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(list)
	}
	if len(list) == 0 {
		fmt.Fprintln(out, "Nothing waits for approval.")
		return nil
	}
	for i, p := range list {
		if i > 0 {
			fmt.Fprintln(out)
		}
		fmt.Fprintf(out, "%s (%s): %s", p.Name, p.Kind, p.Reason)
		if p.Change != "" {
			fmt.Fprintf(out, "; %s", p.Change)
		}
		fmt.Fprintln(out)
		for _, f := range p.Found {
			fmt.Fprintf(out, "  %s\n", scan.Reveal(f.String()))
		}
		if p.Diff != "" {
			fmt.Fprint(out, p.Diff)
		}
		fmt.Fprintf(out, "Approve: %s\n", p.approveCommand())
	}
	return nil
}

// matchesPending reports whether a name on the command line (SERVER,
// SERVER__TOOL, SERVER:instructions and the like, or skills/PATH, with an
// optional @DIGEST) names p. A server's name names all it holds.
func matchesPending(arg string, p pending) bool {
	name, digest, _ := strings.Cut(arg, "@")
	if ok, err := trust.MatchDigest(p.Digest, digest); digest != "" && (!ok || err != nil) {
		return false
	}
	return name == p.Name || p.server != "" && name == p.server
}

func runApprove(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("approve", os.Stderr)
	sf := addSourceFlags(fs, flagSkills|flagTools|flagMCPConfig, "warn")
	tf := addTrustFlags(fs)
	all := fs.Bool("all", false, "approve every held tool and withheld skill")
	yesFlagged := fs.Bool(yesFlaggedFlag, false, "approve definitions the scanner flagged without being asked (which happens on a terminal); without a terminal they are approved only with it. Type it yourself, after reading toolsearch review")
	names, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(names) == 0 && !*all {
		return fmt.Errorf("name what to approve (SERVER, SERVER__TOOL, SERVER:instructions, SERVER:prompt:NAME, SERVER:resource:URI or skills/PATH, each with an optional @DIGEST from toolsearch review), or pass --all")
	}
	a, err := openApp(sf)
	if err != nil {
		return err
	}
	defer a.close(ctx)
	tf.load(ctx, a)
	list := a.collectPending(false)
	var chosen []pending
	var problems []error
	for _, n := range names {
		if _, digest, ok := strings.Cut(n, "@"); ok {
			if _, err := trust.MatchDigest(strings.Repeat("0", 64), digest); err != nil {
				problems = append(problems, fmt.Errorf("%s: %w", n, err))
				continue
			}
		}
		before := len(chosen)
		for _, p := range list {
			if matchesPending(n, p) {
				chosen = append(chosen, p)
			}
		}
		if len(chosen) > before {
			continue
		}
		name, _, _ := strings.Cut(n, "@")
		if i := slices.IndexFunc(list, func(p pending) bool { return matchesPending(name, p) }); i >= 0 {
			problems = append(problems, fmt.Errorf("%s changed since it was reviewed (it is now @%s): review it again", name, list[i].Digest[:shortDigest]))
			continue
		}
		problems = append(problems, fmt.Errorf("%s: nothing of that name waits for approval (see toolsearch review)", n))
	}
	if *all {
		chosen = list
	}
	consent := flaggedConsent{yes: *yesFlagged, terminal: stdinIsTerminal(), in: bufio.NewReader(os.Stdin), prompt: os.Stderr, diff: a.pendingDiff}
	chosen, refused := consent.screen(chosen)
	problems = append(problems, refused...)
	approved, err := a.approve(ctx, chosen, "cli")
	for _, p := range approved {
		fmt.Fprintln(out, approvedLine(p))
	}
	if err != nil {
		problems = append(problems, err)
	}
	if len(approved) == 0 && len(problems) == 0 {
		fmt.Fprintln(out, "Nothing waits for approval.")
	}
	return errors.Join(problems...)
}

// approvedLine says what approving p did: it is served now, and why it
// had waited (the reason reads as the state it left, not as its state).
func approvedLine(p pending) string {
	why := "it was " + p.Reason
	if p.Reason == trust.ReasonUnreadable {
		why = "the approvals file could not be read"
	}
	return fmt.Sprintf("approved %s@%s: the model can use this %s now (it waited because %s)", p.Name, p.Digest[:min(shortDigest, len(p.Digest))], p.Kind, why)
}

// approve records the chosen definitions as approved by by.
func (a *app) approve(ctx context.Context, chosen []pending, by string) ([]pending, error) {
	var approved []pending
	var reqs []upstream.ApproveRequest
	var skills []trust.Item
	for _, p := range chosen {
		if p.Kind == "skill" {
			skills = append(skills, trust.Item{Entry: p.skill.Path, Digest: p.Digest, By: by})
			approved = append(approved, p)
			continue
		}
		reqs = append(reqs, upstream.ApproveRequest{Server: p.server, Tool: p.tool, Digest: p.Digest})
	}
	var errs []error
	if len(skills) > 0 {
		if err := a.approvals.Approve(ctx, skill.ApprovalKey, loader.SkillsSourceName, skills); err != nil {
			return nil, err
		}
	}
	if len(reqs) > 0 {
		done, err := a.upstreams.Approve(ctx, by, reqs...)
		errs = append(errs, err)
		for _, d := range done {
			for _, p := range chosen {
				if p.server != "" && p.server == d.Server && p.tool == d.Tool {
					approved = append(approved, p)
				}
			}
		}
	}
	return approved, errors.Join(errs...)
}

func runScan(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("scan", os.Stderr)
	sf := addSourceFlags(fs, flagSkills|flagTools|flagMCPConfig, "warn")
	uf := addUpstreamFlags(fs, true)
	asJSON := fs.Bool("json", false, "print JSON")
	a, _, err := parseAndOpen(fs, sf, args)
	if err != nil {
		return err
	}
	defer a.close(ctx)
	a.loadUpstreams(ctx, uf)
	var held []upstream.Pending
	if a.upstreams != nil {
		held = a.upstreams.Pending()
	}
	rep := scanCatalog(a.catalog.Snapshot(), a.skills, held)
	rep.Oversized = a.server.Oversized()
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		for _, f := range rep.Findings {
			fmt.Fprintf(out, "%s (%s from %s): %s\n", f.Entry, f.Kind, f.Source, scan.Reveal(f.Finding.String()))
		}
		fmt.Fprintln(out, scanSummary(rep))
	}
	if !*asJSON {
		writeOversized(out, rep.Oversized) // large, not hostile: the exit status is the findings'
	}
	if len(rep.Findings) > 0 {
		return exitError(1)
	}
	return nil
}

// scanSummary says what the scan did: how many definitions it read, and
// of them how many it flagged with how many findings.
func scanSummary(rep ScanReport) string {
	scanned := plural(rep.Scanned, "definition") + " scanned"
	if rep.Flagged == 0 {
		return scanned + ": nothing found"
	}
	return fmt.Sprintf("%s: %s flagged, with %s", scanned, plural(rep.Flagged, "definition"), plural(len(rep.Findings), "finding"))
}

// ScanReport is what `toolsearch scan` finds in the catalog.
type ScanReport struct {
	Scanned  int           `json:"scanned"` // definitions
	Flagged  int           `json:"flagged"`
	Findings []ScanFinding `json:"findings"`
	// Oversized are the definitions over the size limits (server.Oversized).
	Oversized []server.Flag `json:"oversized,omitempty"`
}

// ScanFinding is one finding with the entry it is in.
type ScanFinding struct {
	Entry  string `json:"entry"`
	Kind   string `json:"kind"`
	Source string `json:"source"`
	scan.Finding
}

// scanCatalog scans every tool, prompt and resource of the snapshot, held
// or not, every server's instructions, and every skill, withheld or not;
// shadowing counts every other source's tools. held are the definitions
// other than tools that wait for approval, which the snapshot leaves out:
// their findings are the scanner's, made when they were decided.
func scanCatalog(snap *catalog.Snapshot, skills *loader.SkillSource, held []upstream.Pending) ScanReport {
	rep := ScanReport{Findings: []ScanFinding{}}
	var names scan.Names
	for _, e := range snap.Entries {
		if e.Kind == catalog.KindTool {
			names.Add(e.Source, e.Tool.Name, e.Name)
		}
	}
	add := func(e, kind, source string, fs []scan.Finding) {
		rep.Scanned++
		if len(fs) > 0 {
			rep.Flagged++
		}
		for _, f := range fs {
			rep.Findings = append(rep.Findings, ScanFinding{Entry: e, Kind: kind, Source: source, Finding: f})
		}
	}
	for _, e := range snap.Entries {
		switch e.Kind {
		case catalog.KindTool:
			add(e.Name, "tool", e.Source, slices.Concat(scan.Tool(e.Tool), scan.Shadowing(e.Source, e.Tool, &names)))
		case catalog.KindSkill:
			add(e.Name, "skill", e.Source, e.Skill.Scan())
		case catalog.KindPrompt:
			add(e.Name, "prompt", e.Source, scan.Prompt(e.Prompt))
		case catalog.KindResource:
			add(e.Name, "resource", e.Source, scanResource(e))
		}
	}
	for _, src := range snap.Sources {
		if src.Kind == catalog.SourceServer && src.Instructions != "" {
			add(src.Name+upstream.InstructionsKey, upstream.KindInstructions, src.Name, scan.Text("instructions", src.Instructions))
		}
	}
	for _, p := range held {
		if p.Kind != string(catalog.KindTool) {
			add(p.Entry.Name, p.Kind, p.Server, p.Entry.Quarantine.Findings)
		}
	}
	if skills != nil {
		for _, sk := range skills.Withheld() {
			add(sk.Name, "skill", loader.SkillsSourceName, sk.Scan())
		}
	}
	return rep
}

// scanResource scans what a resource or template says of itself.
func scanResource(e *catalog.Entry) []scan.Finding {
	var name, title, desc string
	switch {
	case e.Resource != nil:
		name, title, desc = e.Resource.Name, e.Resource.Title, e.Resource.Description
	case e.Template != nil:
		name, title, desc = e.Template.Name, e.Template.Title, e.Template.Description
	}
	return slices.Concat(scan.Text("name", name), scan.Text("title", title), scan.Text("description", desc))
}

// writeQuarantined lists the held entries of a catalog report with why and
// how to approve them.
func writeQuarantined(out io.Writer, rep web.CatalogReport) {
	var held []web.EntryReport
	for _, e := range rep.Entries {
		if e.Quarantine != nil {
			held = append(held, e)
		}
	}
	if len(held) == 0 {
		return
	}
	fmt.Fprintf(out, "\nQuarantined (%d): see toolsearch review\n", len(held))
	for _, e := range held {
		q := e.Quarantine
		fmt.Fprintf(out, "  %s (from %s): %s; %s. Review: %s\n", e.Name, e.Source, q.Reason, q.Summary, q.Review)
		for _, f := range q.Findings {
			fmt.Fprintf(out, "    %s\n", scan.Reveal(f.String()))
		}
	}
}

// appApprovals gives the status page what waits for approval, and approves
// from it.
type appApprovals struct{ a *app }

// maxPendingDiffs bounds the diffs made for the status page at once.
const maxPendingDiffs = 100

func (x appApprovals) Pending() []web.Pending {
	list := x.a.collectPending(false)
	out := make([]web.Pending, 0, len(list))
	for i, p := range list {
		wp := web.Pending{Name: p.Name, Kind: p.Kind, Digest: p.Digest, Reason: p.Reason, Change: p.Change}
		for _, f := range p.Found {
			wp.Findings = append(wp.Findings, scan.Reveal(f.String()))
		}
		if i < maxPendingDiffs {
			wp.Diff = x.a.pendingDiff(p)
		}
		out = append(out, wp)
	}
	return out
}

func (x appApprovals) Approve(ctx context.Context, name, digest string) error {
	for _, p := range x.a.collectPending(false) {
		if p.Name != name {
			continue
		}
		if p.Digest != digest { // the whole digest shown: see web.Approvals
			return web.ErrChanged
		}
		_, err := x.a.approve(ctx, []pending{p}, "http")
		return err
	}
	return web.ErrNotPending
}

// runTrust runs the trust subcommands; reset is the only one.
func runTrust(ctx context.Context, args []string, out io.Writer) error {
	if ok, err := subcommandIs(args, "reset", "Usage: toolsearch trust reset SERVER... [flags]\n\nForget every approval of the servers, so that the next listing of each counts as its first.\nApprovals follow a server's name in .mcp.json: editing its command, arguments or URL, or\nstarting toolsearch in another folder, keeps them; this is the only fresh start."); !ok {
		return err
	}
	fs := newFlagSet("trust reset", os.Stderr)
	sf := addSourceFlags(fs, flagMCPConfig, "warn")
	names, err := parseFlags(fs, args[1:])
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("name the servers whose trust to reset (their names in .mcp.json)")
	}
	a, err := openApp(sf)
	if err != nil {
		return err
	}
	defer a.close(ctx)
	m := a.upstreams
	if m == nil {
		// Servers no longer configured keep their approvals too.
		m = upstream.New(nil, upstream.Options{Approvals: a.approvals, Logger: a.log})
	}
	var problems []error
	for _, name := range names {
		forgot, err := m.ResetTrust(ctx, name)
		switch {
		case err != nil:
			problems = append(problems, fmt.Errorf("%s: %w", name, err))
		case forgot:
			fmt.Fprintf(out, "forgot the approvals of %s: its next listing counts as its first\n", name)
		default:
			fmt.Fprintf(out, "%s has no approvals to forget\n", name)
		}
	}
	return errors.Join(problems...)
}
