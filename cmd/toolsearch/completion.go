package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/cmd/toolsearch/internal/hosts"
	"github.com/toolsearch/toolsearch/server"
)

// completionShells are the shells `toolsearch completion` writes for.
var completionShells = []string{"bash", "zsh", "fish"}

func runCompletion(_ context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("completion", os.Stderr)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 || !slices.Contains(completionShells, rest[0]) {
		fs.Usage()
		return errUsage
	}
	specs := completionSpecs()
	switch rest[0] {
	case "bash":
		writeBashCompletion(out, specs)
	case "zsh":
		writeZshCompletion(out, specs)
	case "fish":
		writeFishCompletion(out, specs)
	}
	return nil
}

// A commandSpec is what completion knows of a command: its flags and the
// words its positional arguments may be.
type commandSpec struct {
	name, summary string
	flags         []*flag.Flag
	words         []string // positional words; none means files
}

// flagChoices are the values of flags that take one of a few words.
var flagChoices = map[string][]string{
	"kind":      server.SearchKinds(),
	"detail":    server.SearchDetails(),
	"elicit":    elicitModes,
	"tokenizer": {"o200k_base", "cl100k_base"},
	"log-level": {"debug", "info", "warn", "error"},
	"from":      hosts.Names(),
}

// positionalWords are the words a command's arguments are made of, where
// they are not files.
var positionalWords = map[string][]string{
	"completion":    completionShells,
	"client-config": hosts.Names(),
	"skills":        {"validate"},
}

// completionSpecs asks every command for its flags, the way `--help` finds
// them, so that completion offers exactly what each command parses.
func completionSpecs() []commandSpec {
	var specs []commandSpec
	for _, c := range commands {
		spec := commandSpec{name: c.name, summary: c.summary, words: positionalWords[c.name]}
		args := []string{"--help"}
		if c.name == "skills" {
			args = []string{"validate", "--help"}
		}
		var sets []*flag.FlagSet
		collectFlags = func(fs *flag.FlagSet) { sets = append(sets, fs) }
		_ = c.run(context.Background(), args, io.Discard)
		collectFlags = nil
		for _, fs := range sets {
			fs.VisitAll(func(f *flag.Flag) { spec.flags = append(spec.flags, f) })
		}
		specs = append(specs, spec)
	}
	return specs
}

// collectFlags, when set, receives every flag set newFlagSet makes, whose
// usage message then goes nowhere; completion reads the flags the command
// defined on it once the command has parsed --help.
var collectFlags func(*flag.FlagSet)

// takesValue reports whether a flag is followed by a value.
func takesValue(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// flagHelp is the first line of a flag's usage, plain enough to quote in
// any shell's completion script.
func flagHelp(f *flag.Flag) string {
	_, usage := flag.UnquoteUsage(f)
	usage, _, _ = strings.Cut(usage, "\n")
	usage, _, _ = strings.Cut(usage, "; ")
	return strings.NewReplacer("[", "(", "]", ")", "'", "", "`", "", "\"", "").Replace(usage)
}

func writeBashCompletion(w io.Writer, specs []commandSpec) {
	var names []string
	for _, s := range specs {
		names = append(names, s.name)
	}
	fmt.Fprintf(w, `# bash completion for toolsearch. Load it with
#   source <(toolsearch completion bash)
# or save it as /etc/bash_completion.d/toolsearch.
_toolsearch() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W %q -- "$cur"))
        return
    fi
    local opts words values
    case ${COMP_WORDS[1]} in
`, strings.Join(names, " "))
	for _, s := range specs {
		var opts, values []string
		for _, f := range s.flags {
			opts = append(opts, "--"+f.Name)
			if takesValue(f) {
				values = append(values, "--"+f.Name)
			}
		}
		fmt.Fprintf(w, "    %s) opts=%q; values=%q; words=%q ;;\n", s.name, strings.Join(opts, " "), " "+strings.Join(values, " ")+" ", strings.Join(s.words, " "))
	}
	fmt.Fprintf(w, "    *) return ;;\n    esac\n    case $prev in\n")
	for _, name := range slices.Sorted(maps.Keys(flagChoices)) {
		fmt.Fprintf(w, "    --%s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", name, strings.Join(flagChoices[name], " "))
	}
	fmt.Fprintf(w, `    esac
    # After a flag that takes a value (a file, a number), complete files.
    if [[ $values == *" $prev "* ]]; then
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [ -n "$words" ]; then
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
    fi
}
complete -o default -F _toolsearch toolsearch
`)
}

func writeZshCompletion(w io.Writer, specs []commandSpec) {
	fmt.Fprintf(w, `#compdef toolsearch
# zsh completion for toolsearch. Load it with
#   source <(toolsearch completion zsh)
# or save it as _toolsearch in a folder of $fpath.
_toolsearch() {
    local -a commands
    commands=(
`)
	for _, s := range specs {
		fmt.Fprintf(w, "        %s\n", zshQuote(s.name+":"+strings.ReplaceAll(s.summary, ":", `\:`)))
	}
	fmt.Fprintf(w, `    )
    if (( CURRENT == 2 )); then
        _describe -t commands 'toolsearch command' commands
        return
    fi
    local cmd=$words[2]
    shift words
    (( CURRENT-- ))
    case $cmd in
`)
	for _, s := range specs {
		fmt.Fprintf(w, "    %s)\n        _arguments -s", s.name)
		for _, f := range s.flags {
			spec := "--" + f.Name + "[" + strings.ReplaceAll(flagHelp(f), ":", `\:`) + "]"
			if takesValue(f) {
				name, _ := flag.UnquoteUsage(f)
				if name == "" {
					name = "value"
				}
				action := "_files"
				if choices, ok := flagChoices[f.Name]; ok {
					action = "(" + strings.Join(choices, " ") + ")"
				}
				spec += ":" + name + ":" + action
			}
			fmt.Fprintf(w, " \\\n            %s", zshQuote(spec))
		}
		action := "_files"
		if len(s.words) > 0 {
			action = "(" + strings.Join(s.words, " ") + ")"
		}
		fmt.Fprintf(w, " \\\n            %s ;;\n", zshQuote("*:argument:"+action))
	}
	fmt.Fprintf(w, `    esac
}
if [ "$funcstack[1]" = "_toolsearch" ]; then
    _toolsearch "$@"
else
    compdef _toolsearch toolsearch
fi
`)
}

func writeFishCompletion(w io.Writer, specs []commandSpec) {
	fmt.Fprintf(w, `# fish completion for toolsearch. Load it with
#   toolsearch completion fish | source
# or save it as ~/.config/fish/completions/toolsearch.fish.
complete -c toolsearch -f
`)
	for _, s := range specs {
		fmt.Fprintf(w, "complete -c toolsearch -n __fish_use_subcommand -a %s -d %s\n", s.name, fishQuote(s.summary))
	}
	for _, s := range specs {
		cond := fishQuote("__fish_seen_subcommand_from " + s.name)
		for _, f := range s.flags {
			line := fmt.Sprintf("complete -c toolsearch -n %s -l %s", cond, f.Name)
			if choices, ok := flagChoices[f.Name]; ok {
				line += " -x -a " + fishQuote(strings.Join(choices, " "))
			} else if takesValue(f) {
				line += " -r -F"
			}
			fmt.Fprintf(w, "%s -d %s\n", line, fishQuote(flagHelp(f)))
		}
		if len(s.words) > 0 {
			fmt.Fprintf(w, "complete -c toolsearch -n %s -a %s\n", cond, fishQuote(strings.Join(s.words, " ")))
		} else {
			fmt.Fprintf(w, "complete -c toolsearch -n %s -F\n", cond)
		}
	}
}

// zshQuote and fishQuote quote a word for the shell: single quotes, with
// any single quote inside closed, escaped and reopened.
func zshQuote(s string) string  { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
func fishQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }
