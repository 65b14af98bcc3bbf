package loader

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/scan"
	"github.com/toolsearch/toolsearch/loader/skill"
)

// SkillsSourceName is the catalog source that holds the skills.
const SkillsSourceName = "skills"

// DefaultMaxTotalSkillBytes bounds the files of all skills together, which
// are held in memory: skill.MaxBytes bounds one skill, but not how many
// there are.
const DefaultMaxTotalSkillBytes = 256 << 20

// SkillSource keeps the catalog's skills in step with the skill roots on
// disk. Each skill folder is loaded on its own and cached, so an edit
// re-reads only the folder it touched.
type SkillSource struct {
	roots   []string
	catalog *catalog.Catalog
	logger  *slog.Logger

	// MaxTotalBytes bounds the files of all skills together; zero means
	// DefaultMaxTotalSkillBytes. Skills load in the order of their roots,
	// then of their paths; those that would take the total beyond it are
	// withheld, each with a problem naming it, and load once there is room.
	// Set it before Load.
	MaxTotalBytes int64

	mu       sync.Mutex
	loadedAt time.Time             // when Load began: Watch reads again what changed since
	loaded   map[string]*loadedDir // by skill folder path
	reported map[string]bool       // problems already logged, so a reload logs only news
	flagged  []*skill.Skill        // flagged by the scanner and not approved

	// Approved, when set, reports whether a person approved a skill the
	// scanner flagged, by its path and digest; a flagged skill that is not
	// approved is withheld, listed among the problems with its findings.
	Approved func(path, digest string) bool
}

type loadedDir struct {
	skill    *skill.Skill
	probs    problem.Problems
	findings map[*skill.Skill][]scan.Finding // the scanner's, for the skill and its nested ones
	withheld bool                            // over MaxTotalBytes: retried at every refresh
}

// size is what the skill's files take in memory; a nested skill's files
// are its enclosing skill's.
func (ld *loadedDir) size() int64 {
	var n int64
	if ld.skill != nil {
		for _, f := range ld.skill.Files {
			n += int64(len(f.Data))
		}
	}
	return n
}

// NewSkillSource prepares a source for the given roots; nothing is read
// until Load.
func NewSkillSource(roots []string, catalog *catalog.Catalog, logger *slog.Logger) *SkillSource {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &SkillSource{roots: roots, catalog: catalog, logger: logger, loaded: map[string]*loadedDir{}, reported: map[string]bool{}}
}

// Load reads every skill folder and publishes the skills. It returns every
// problem found, including those of skills that did load.
func (s *SkillSource) Load() problem.Problems {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.loadedAt = time.Now()
	return s.refresh(nil)
}

// refresh reloads the given folders (all when dirty is nil), then merges and
// publishes. Callers hold s.mu.
func (s *SkillSource) refresh(dirty map[string]bool) problem.Problems {
	order, rootProbs, _ := s.reload(dirty)
	return s.publish(order, rootProbs)
}

// reload finds the skill folders of every root and loads those that are new,
// dirty (all when dirty is nil) or were withheld, within MaxTotalBytes. It
// returns the folders in order, the problems of the roots themselves, and
// whether it loaded or dropped any folder. Callers hold s.mu.
func (s *SkillSource) reload(dirty map[string]bool) (order []string, rootProbs problem.Problems, changed bool) {
	var total int64 // bytes of the skills kept so far
	limit := s.MaxTotalBytes
	if limit <= 0 {
		limit = DefaultMaxTotalSkillBytes
	}
	present := map[string]bool{}
	for _, root := range s.roots {
		dirs, probs, err := skill.Dirs(root)
		rootProbs = append(rootProbs, probs...)
		if err != nil {
			rootProbs = append(rootProbs, problem.Problem{File: root, Severity: problem.SeverityError, Message: err.Error()})
			continue
		}
		for _, dir := range dirs {
			present[dir] = true
			order = append(order, dir)
			ld, ok := s.loaded[dir]
			if !ok || dirty == nil || dirty[dir] || ld.withheld {
				changed = true
				if total >= limit { // full: not even read
					s.loaded[dir] = withheld(dir, total, limit)
					continue
				}
				ld = loadDir(root, dir)
				s.loaded[dir] = ld
			}
			if size := ld.size(); total+size > limit {
				s.loaded[dir] = withheld(dir, total, limit)
			} else {
				total += size
			}
		}
	}
	for dir := range s.loaded {
		if !present[dir] {
			delete(s.loaded, dir)
			changed = true
		}
	}
	return order, rootProbs, changed
}

// loadDir loads the skill folder dir of root, and scans the skill and its
// nested ones.
func loadDir(root, dir string) *loadedDir {
	sk, probs := skill.Load(dir)
	ld := &loadedDir{skill: sk, probs: probs, findings: map[*skill.Skill][]scan.Finding{}}
	if sk != nil {
		sk.PlaceUnder(root)
		for _, k := range append([]*skill.Skill{sk}, sk.Nested...) {
			if fs := k.Scan(); len(fs) > 0 {
				ld.findings[k] = fs
			}
		}
	}
	return ld
}

// publish merges the loaded folders, in order, into the skills source: the
// first skill of a name wins, and a flagged skill not approved is withheld.
// Callers hold s.mu.
func (s *SkillSource) publish(order []string, rootProbs problem.Problems) problem.Problems {
	src := &catalog.Source{Name: SkillsSourceName, Kind: catalog.SourceSkills, Problems: rootProbs}
	s.flagged = nil
	winners := map[string]*skill.Skill{}
	for _, dir := range order {
		ld := s.loaded[dir]
		src.Problems = append(src.Problems, ld.probs...)
		if ld.skill == nil {
			continue
		}
		// A folder whose skill loses to another of the same name brings none
		// of its nested skills either.
		for i, sk := range append([]*skill.Skill{ld.skill}, ld.skill.Nested...) {
			if first, dup := winners[sk.Name]; dup {
				src.Problems = append(src.Problems, problem.Problem{
					File:     filepath.Join(sk.Dir, skill.FileName),
					Severity: problem.SeverityWarning,
					Message:  fmt.Sprintf("skill %q is also defined in %s, which wins; this one is not loaded", sk.Name, first.Dir),
				})
				if i == 0 {
					break
				}
				continue
			}
			fs := ld.findings[sk]
			withholds := scan.Withholds(fs)
			if withholds && (s.Approved == nil || !s.Approved(sk.Path, sk.Digest())) {
				src.Problems = append(src.Problems, skill.WithheldProblems(sk, fs)...)
				s.flagged = append(s.flagged, sk)
				continue
			}
			if len(fs) > 0 && !withholds {
				// Weak signals alone annotate the skill; it loads.
				src.Problems = append(src.Problems, skill.WithheldProblems(sk, fs)...)
			}
			winners[sk.Name] = sk
			src.Entries = append(src.Entries, catalog.NewSkillEntry(SkillsSourceName, sk))
		}
	}
	s.logNews(src.Problems)
	s.catalog.Put(src)
	return src.Problems
}

// Withheld returns the skills the scanner flagged that are not approved.
func (s *SkillSource) Withheld() []*skill.Skill {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.flagged)
}

// Redecide publishes the skills again, after approvals changed, without
// reading them again, when the approvals now decide otherwise for a skill
// the scanner withholds. Most changes are of tools (a server's listing
// records its tools' approvals), and a publish builds the whole catalog's
// snapshot again: 100,000 entries at a large server's first listing.
func (s *SkillSource) Redecide() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.decidedAsBefore() {
		return
	}
	s.refresh(map[string]bool{})
}

// decidedAsBefore reports whether every skill the scanner withholds unless
// approved is still withheld, or still let through, as it was published.
// (A skill that lost to another of its name was never published; it counts
// as changed, which costs only a publish.) Callers hold s.mu.
func (s *SkillSource) decidedAsBefore() bool {
	for _, ld := range s.loaded {
		for sk, fs := range ld.findings {
			if !scan.Withholds(fs) {
				continue
			}
			held := s.Approved == nil || !s.Approved(sk.Path, sk.Digest())
			if held != slices.Contains(s.flagged, sk) {
				return false
			}
		}
	}
	return true
}

// withheld is the entry of a skill folder kept out for want of room.
func withheld(dir string, total, limit int64) *loadedDir {
	return &loadedDir{withheld: true, probs: problem.Problems{{
		File:     filepath.Join(dir, skill.FileName),
		Severity: problem.SeverityError,
		Message: fmt.Sprintf("skill folder %s is withheld: the skills loaded before it already hold %s of the %s that all skills together may take in memory; remove or shrink skills to make room, or raise skillsMaxBytes in toolsearch.yaml",
			filepath.Base(dir), mib(total), mib(limit)),
	}}}
}

// mib formats a size in MiB.
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// logNews logs problems not logged before, so that a watcher's reloads do
// not repeat old complaints.
func (s *SkillSource) logNews(probs problem.Problems) {
	now := map[string]bool{}
	for _, p := range probs {
		key := p.String()
		now[key] = true
		if s.reported[key] {
			continue
		}
		switch p.Severity {
		case problem.SeverityError:
			s.logger.Error("skill not loaded", "problem", key)
		case problem.SeverityWarning:
			s.logger.Warn("skill loaded with a problem", "problem", key)
		default:
			s.logger.Info("skill hint", "problem", key)
		}
	}
	s.reported = now
}

// Watch follows the roots until ctx ends: a skill folder added, edited or
// removed is reloaded once the burst of file events has been quiet for
// debounce, and the catalog is updated.
func (s *SkillSource) Watch(ctx context.Context, debounce time.Duration) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	watched := map[string]bool{}
	s.syncWatches(w, watched)
	// What changed between Load and the watches made no event: a skill
	// added as the server started stayed unknown until something else
	// changed. A reload finds new and removed folders; a folder loaded
	// before is read again if it changed since Load began. Published only
	// if any did: republishing the same skills rebuilt a large catalog at
	// every start, which raised its peak.
	s.mu.Lock()
	if order, rootProbs, changed := s.reload(s.changedSince(s.loadedAt)); changed {
		s.publish(order, rootProbs)
	}
	s.mu.Unlock()

	dirty := map[string]bool{}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if dir := s.skillDirOf(ev.Name); dir != "" {
				dirty[dir] = true
			}
			timer.Reset(debounce)
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			s.logger.Warn("watching skill roots", "err", err)
		case <-timer.C:
			// Watch new folders before reading them: whatever changes
			// after this is seen by the watcher, and whatever changed
			// before it is read by the refresh.
			s.syncWatches(w, watched)
			s.mu.Lock()
			s.refresh(dirty)
			s.mu.Unlock()
			dirty = map[string]bool{}
		}
	}
}

// changedSince returns the loaded skill folders in which a file or folder was
// modified at t or after (a second before, for file systems that keep
// coarse times). Callers hold s.mu.
func (s *SkillSource) changedSince(t time.Time) map[string]bool {
	since := t.Add(-time.Second)
	changed := map[string]bool{}
	for dir := range s.loaded {
		filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // gone or unreadable: the refresh reports it
			}
			if info, err := d.Info(); err == nil && !info.ModTime().Before(since) {
				changed[dir] = true
				return filepath.SkipAll
			}
			return nil
		})
	}
	return changed
}

// skillDirOf maps a changed path to the skill folder it belongs to: the
// loaded skill folder that contains it, or else the root's subfolder that
// does (a folder that is new, or organizational; new skill folders are
// loaded in any case, and removed ones dropped).
func (s *SkillSource) skillDirOf(p string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for dir := p; ; {
		if _, ok := s.loaded[dir]; ok {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	for _, root := range s.roots {
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			continue
		}
		first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
		return filepath.Join(root, first)
	}
	return ""
}

// syncWatches watches each root and every folder inside its skills, since
// fsnotify does not recurse, and drops watches on folders that are gone.
func (s *SkillSource) syncWatches(w *fsnotify.Watcher, watched map[string]bool) {
	want := map[string]bool{}
	for _, root := range s.roots {
		want[root] = true
		entries, err := os.ReadDir(root)
		if err != nil {
			continue
		}
		for _, e := range entries {
			dir := filepath.Join(root, e.Name())
			if info, err := os.Stat(dir); err != nil || !info.IsDir() || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err != nil || !d.IsDir() {
					return nil
				}
				if p != dir && skill.SkippedDirs[d.Name()] {
					return fs.SkipDir
				}
				want[p] = true
				return nil
			})
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(want)) {
		if !watched[dir] {
			if err := w.Add(dir); err != nil {
				s.logger.Warn("cannot watch skill folder", "dir", dir, "err", err)
				continue
			}
			watched[dir] = true
		}
	}
	for dir := range watched {
		if !want[dir] {
			_ = w.Remove(dir)
			delete(watched, dir)
		}
	}
}
