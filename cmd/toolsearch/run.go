package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/server"
)

func runRun(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("run", os.Stderr)
	sf := addSourceFlags(fs, flagSkills|flagWorkdir, "warn")
	stdin := fs.String("stdin", "", "text for the script's standard input (\"-\" reads it from this process's stdin)")
	timeout := fs.Float64("timeout", 0, "seconds before the script is stopped (default 60)")
	asJSON := fs.Bool("json", false, "print the whole result as JSON (content, structuredContent, isError) instead of its text")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) < 2 {
		fs.Usage()
		return errUsage
	}
	a, err := openApp(sf)
	if err != nil {
		return err
	}
	defer a.close()
	sa := server.ScriptArgs{Skill: rest[0], Script: rest[1], Args: rest[2:], TimeoutS: *timeout}
	if *stdin != "" {
		text := *stdin
		if text == "-" {
			data, err := io.ReadAll(io.LimitReader(os.Stdin, 1<<20+1))
			if err != nil {
				return err
			}
			text = string(data)
		}
		sa.Stdin = text
	}
	res := a.server.RunScript(ctx, sa)
	if err := printResult(out, res, *asJSON); err != nil {
		return err
	}
	if res.IsError {
		return exitError(1)
	}
	return nil
}

// printResult prints a tool result as the model reads it: its text, or
// with asJSON the whole result as JSON, as it goes over the wire (content,
// structuredContent, isError), and nothing else.
func printResult(out io.Writer, res *mcp.CallToolResult, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			fmt.Fprint(out, c.Text)
			if len(c.Text) > 0 && c.Text[len(c.Text)-1] != '\n' {
				fmt.Fprintln(out)
			}
		default:
			data, _ := json.Marshal(c)
			fmt.Fprintf(out, "[%s]\n", data)
		}
	}
	return nil
}
