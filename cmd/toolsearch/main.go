// Command toolsearch is an MCP server that lets a model work with hundreds
// of tools and skills without paying for them all in its context window.
//
// Usage:
//
//	toolsearch <command> [flags] [args]
//
// Run `toolsearch help` for the commands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toolsearch/toolsearch/internal/suggest"
	"github.com/toolsearch/toolsearch/internal/supervise"
)

// A command is one subcommand of the CLI.
type command struct {
	name    string
	args    string // synopsis after the name
	summary string
	run     func(ctx context.Context, args []string, out io.Writer) error
}

var commands []*command

func init() {
	commands = []*command{
		{"init", "[DIR] [--from HOST]", "write a starting toolsearch.yaml, .mcp.json (empty, or imported from a host's config) and skills/ folder in DIR (default: your configuration folder, which serve reads); never overwrites", runInit},
		{"client-config", "HOST", "print the snippet that registers toolsearch with an MCP host, with absolute paths", runClientConfig},
		{"serve", "[flags]", "serve the catalog over MCP (stdio, or Streamable HTTP with --http)", runServe},
		{"bridge", "[--http ADDR] [--token-file FILE] -- COMMAND [ARGS...] | --mcp-config FILE NAME", "serve one stdio server as Streamable HTTP at /mcp, started once and shared by every client (a heavy or stateful server run outside a team's replicas, reached as an http entry with \"bridge\": true)", runBridge},
		{"search", "QUERY [--query QUERY]... [flags]", "print what the model receives from tool_search for QUERY (and one group per --query)", runSearch},
		{"skills", "validate [DIR...]", "check skills strictly by the Agent Skills rules (exit 1 on any problem)", runSkills},
		{"run", "SKILL SCRIPT [flags] [-- ARGS...]", "run a skill's script exactly as the model would and print what it receives", runRun},
		{"call", "NAME --args JSON [flags]", "call a catalog tool the way the model would, through call_tool", runCall},
		{"catalog", "[flags]", "list every entry with its source, state, policy and flags", runCatalog},
		{"scan", "[flags] [--json]", "print what the scanner finds in every tool and skill (exit 1 on any finding)", runScan},
		{"review", "[NAME...] [flags]", "show each tool or skill waiting for approval, with its old and new definition as a diff", runReview},
		{"approve", "NAME... | --all", "approve held tools (SERVER, SERVER__TOOL) and withheld skills (skills/PATH), each optionally @DIGEST", runApprove},
		{"trust", "reset SERVER...", "forget a server's approvals, so that its next listing counts as its first (approvals follow the server's name, not how it is started)", runTrust},
		{"state", "keygen FILE", "write a new key for toolsearch.yaml's state.keyFile (PostgreSQL state: the key that seals OAuth logins)", runState},
		{"auth", "login|status|logout [SERVER] [flags]", "log in to upstream servers that require OAuth; see and forget their tokens", runAuth},
		{"eval", "--catalog FILE --queries FILE [flags]", "measure retrieval quality (recall@k, MRR) on a query set", runEval},
		{"measure", "[flags] [--queries FILE] [--json|--markdown]", "measure the tokens deferral saves: eager vs up-front, per-search cost, break-even", runMeasure},
		{"healthcheck", "[--http ADDR] [--token-file FILE]", "ask a running serve --http on this machine whether it is ready (/readyz): exit 0 if so, 1 if not; for a container's HEALTHCHECK", runHealthcheck},
		{"completion", "bash|zsh|fish", "print shell completion", runCompletion},
		{"version", "", "print the version and the revision it was built from (also --version, -v)", runVersion},
	}
}

// errUsage marks errors that come with their own usage message.
var errUsage = errors.New("usage")

// exitError carries a specific exit status without a message of its own.
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

func main() {
	// Skill scripts and stdio upstream servers run under a supervisor,
	// which is this binary started again: it runs here and exits.
	supervise.Init()
	os.Exit(run(notifyShutdown(), os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if isVersionFlag(args[0]) {
		args = append([]string{"version"}, args[1:]...)
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(ctx, args[1:], stdout)
		var code exitError
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.Is(err, errUsage):
			return 2
		case errors.As(err, &code):
			return int(code)
		}
		fmt.Fprintf(stderr, "toolsearch %s: %v\n", c.name, err)
		return 1
	}
	unknownCommand(stderr, args[0])
	return 2
}

// unknownCommand says that name is no command: with the command meant
// when it is one typo away from one, else with the list of them.
func unknownCommand(w io.Writer, name string) {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	// %.64q: at most 64 characters of it, since a pasted paragraph is no
	// command name.
	if meant, ok := suggest.Closest(name, names); ok {
		fmt.Fprintf(w, "toolsearch: unknown command %.64q: did you mean toolsearch %s? (toolsearch help lists every command)\n", name, meant)
		return
	}
	fmt.Fprintf(w, "toolsearch: unknown command %.64q\n\n", name)
	usage(w)
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "toolsearch lets a model find and load tools and skills on demand, through one MCP server.\n\nUsage:\n\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  toolsearch %-13s %s\n      %s\n", c.name, c.args, c.summary)
	}
	fmt.Fprintf(w, "\nRun `toolsearch <command> --help` for a command's flags.\n")
}

// newFlagSet makes a flag set whose usage names the command.
func newFlagSet(name string, out io.Writer) *flag.FlagSet {
	if collectFlags != nil {
		out = io.Discard
	}
	fs := flag.NewFlagSet("toolsearch "+name, flag.ContinueOnError)
	fs.SetOutput(out)
	for _, c := range commands {
		if c.name == name {
			fs.Usage = func() {
				fmt.Fprintf(out, "Usage: toolsearch %s %s\n\n%s.\n\nFlags:\n", c.name, c.args, upperFirst(c.summary))
				fs.PrintDefaults()
			}
		}
	}
	if collectFlags != nil {
		collectFlags(fs)
	}
	return fs
}

// parseFlags parses flags that may come before, between or after the
// positional arguments, and returns the positional ones.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, errUsage
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		if args[0] == "--" {
			return append(positional, args[1:]...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// parseArgs is parseFlags for a command that takes exactly n arguments:
// any other number prints the command's usage.
func parseArgs(fs *flag.FlagSet, args []string, n int) ([]string, error) {
	rest, err := parseFlags(fs, args)
	if err != nil {
		return nil, err
	}
	if len(rest) != n {
		fs.Usage()
		return nil, errUsage
	}
	return rest, nil
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
