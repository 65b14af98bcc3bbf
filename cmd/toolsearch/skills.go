package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/skill"
)

func runSkills(_ context.Context, args []string, out io.Writer) error {
	if ok, err := subcommandIs(args, "validate", "Usage: toolsearch skills validate [DIR...]\n\nDIR is a skill folder or a root of skill folders (default: the configuration's roots: those of ./toolsearch.yaml when present, else of your configuration folder, with its skills/)."); !ok {
		return err
	}
	fs := newFlagSet("skills", os.Stderr)
	cfgPath := fs.String("config", "", "config file whose skill roots to validate when no DIR is given")
	dirs, err := parseFlags(fs, args[1:])
	if err != nil {
		return err
	}
	if len(dirs) == 0 {
		sf := &sourceFlags{config: *cfgPath}
		cfg, err := sf.settings()
		if err != nil {
			return err
		}
		dirs = cfg.Skills
	}
	if len(dirs) == 0 {
		return fmt.Errorf("no skill folders: give DIR arguments (toolsearch skills validate ./skills), or --config FILE whose skill roots to validate")
	}
	res := validateSkills(dirs)
	for _, p := range res.probs {
		fmt.Fprintln(out, p.String())
	}
	fmt.Fprintln(out, res.summary())
	if res.invalid+res.warned > 0 {
		return exitError(1)
	}
	return nil
}

// validation is what skills validate found.
type validation struct {
	checked int
	invalid int // skills with an error: hosts do not load them
	warned  int // skills with warnings only: they load, but break a rule
	probs   problem.Problems
}

// summary says what the check found: how many skills are fine, how many
// load but break a rule, how many do not load, and the problems by
// severity.
func (v validation) summary() string {
	var errs, warns, hints int
	for _, p := range v.probs {
		switch p.Severity {
		case problem.SeverityError:
			errs++
		case problem.SeverityWarning:
			warns++
		default:
			hints++
		}
	}
	s := fmt.Sprintf("%s checked: %d valid", plural(v.checked, "skill"), v.checked-v.invalid-v.warned)
	if v.warned > 0 {
		s += fmt.Sprintf(", %d with warnings (they load, but break a rule of the Agent Skills format)", v.warned)
	}
	if v.invalid > 0 {
		s += fmt.Sprintf(", %d invalid (not loaded)", v.invalid)
	}
	return s + fmt.Sprintf("; %s, %s, %s", plural(errs, "error"), plural(warns, "warning"), plural(hints, "hint"))
}

// validateSkills checks each DIR, which is either a skill folder or a root
// holding skill folders, strictly: every rule counts.
func validateSkills(dirs []string) validation {
	var v validation
	seen := map[string]string{}
	for _, dir := range dirs {
		folders := []string{dir}
		if _, err := os.Stat(filepath.Join(dir, skill.FileName)); err != nil {
			var err error
			var misnamed problem.Problems
			folders, misnamed, err = skill.Dirs(dir)
			v.probs = append(v.probs, misnamed...)
			v.invalid += len(misnamed)
			if err != nil {
				v.probs = append(v.probs, problem.Problem{File: dir, Severity: problem.SeverityError, Message: err.Error()})
				continue
			}
			if len(folders) == 0 && len(misnamed) == 0 {
				v.probs = append(v.probs, problem.Problem{File: dir, Severity: problem.SeverityError, Message: "no skills here: a skill is a folder holding SKILL.md"})
			}
		}
		for _, folder := range folders {
			v.checked++
			s, ps := skill.Load(folder)
			if s != nil {
				v.checked += len(s.Nested)
				for _, sk := range append([]*skill.Skill{s}, s.Nested...) {
					if first, dup := seen[sk.Name]; dup {
						ps = append(ps, problem.Problem{File: filepath.Join(sk.Dir, skill.FileName), Severity: problem.SeverityWarning, Message: fmt.Sprintf("skill name %q is also used by %s", sk.Name, first)})
					}
					seen[sk.Name] = sk.Dir
					ps = append(ps, skill.WithheldProblems(sk, sk.Scan())...)
				}
			}
			switch ps.Worst() {
			case problem.SeverityError:
				v.invalid++
			case problem.SeverityWarning:
				v.warned++
			}
			v.probs = append(v.probs, ps...)
		}
	}
	return v
}

// subcommandIs reports whether args start with the one subcommand a command has. If not,
// it prints usage to stderr and returns errUsage, or nil when help was asked for.
func subcommandIs(args []string, name, usage string) (bool, error) {
	if len(args) > 0 && args[0] == name {
		return true, nil
	}
	fmt.Fprintln(os.Stderr, usage)
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		return false, nil
	}
	return false, errUsage
}
