//go:build hosts

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/cmd/toolsearch/internal/modelsim"
)

// codeModeMarker starts the line codeModeProgram prints: its arrival in
// run_code_read's result shows that the script ran both calls.
const codeModeMarker = "CODE MODE:"

// codeModeProgram is the script the scripted model hands run_code_read:
// two catalog tools called, one line printed.
const codeModeProgram = `w = call("weather__get_weather", {"city": "Paris"})
p = call("projectdocs__project_list")
print("` + codeModeMarker + `", w["city"], "humidity", w["humidity_percent"], "| demo listed:", "demo" in p)
`

// codeModeScript is the scripted model of a code-mode loop: tool_search,
// then run_code_read with codeModeProgram, then a final text quoting what
// the script printed. Where the host defers toolsearch's tools it loads
// them first with the host's ToolSearch, as weatherScript does.
func codeModeScript(t modelsim.Turn) modelsim.Reply {
	if load, ok := loadDeferred(t, "tool_search", "run_code_read"); ok {
		return load
	}
	search := cmpOr(t.Offers("tool_search"), t.Defers("tool_search"))
	if search == "" {
		return modelsim.Reply{Text: "no tool_search among the tools offered"}
	}
	run := cmpOr(t.Offers(codeModeTool), t.Defers(codeModeTool))
	if r, ok := t.ResultOf(codeModeTool); ok && run != "" {
		return modelsim.Reply{Text: loopMarker + " " + oneLine(r.Text, 300)}
	}
	if _, ok := t.ResultOf(search); !ok {
		return call(search, map[string]any{"query": "current weather in a city, and the list of projects"})
	}
	if run == "" {
		return modelsim.Reply{Text: "no " + codeModeTool + " among the tools offered"}
	}
	return call(run, map[string]any{"script": codeModeProgram})
}

// codeModeTool is the code-mode tool the loop runs: the one a host can
// approve once, as it approves call_tool_read.
const codeModeTool = "run_code_read"

// TestHostsCodeMode: with code mode on in toolsearch.yaml, search, then one
// run_code_read script that calls two catalog tools and prints one line,
// in each host over stdio and HTTP, registered as client-config prints it
// and with its --permissions where the host needs them: the script runs
// unasked where a proxied read does, and its line is what comes back.
func TestHostsCodeMode(t *testing.T) {
	hostCases(t, func(t *testing.T, h *host, tr transport) {
		e := newHostEnv(t, codeModeScript)
		e.setServers(exampleServers(t))
		e.enableCodeMode()
		r := e.newRun(h)
		tr.register(r)
		r.applyPermissions()
		res := r.runTurn(weatherPrompt)

		main := res.mainRequests()
		if len(main) == 0 {
			t.Fatalf("no model request offered tools:\n%s", res.describe())
		}
		if main[0].Turn.Offers(codeModeTool) == "" && main[0].Turn.Defers(codeModeTool) == "" {
			t.Errorf("the first model request carries no %s with codeMode: true: %v %v", codeModeTool, main[0].Turn.Tools, main[0].Turn.Deferred)
		}
		if !searchedBeforeScript(res) {
			t.Errorf("tool_search's result is not in the conversation before the script's")
		}
		printed, ok := resultNamed(res, codeModeTool)
		switch {
		case !ok:
			t.Errorf("%s was never called (left out, or refused before it ran)", codeModeTool)
		case !strings.Contains(printed, codeModeMarker+" Paris humidity") || !strings.Contains(printed, "demo listed: True"):
			t.Errorf("%s's result is not the line the script prints from both calls (held, refused or failed): %s", codeModeTool, oneLine(printed, 400))
		}
		if !strings.Contains(res.stdout, loopMarker) {
			t.Errorf("the final text never arrived")
		}
		if t.Failed() {
			t.Logf("what the host did:\n%s", res.describe())
		}
	})
}

// enableCodeMode turns code mode on in the configuration's toolsearch.yaml.
func (e *hostEnv) enableCodeMode() {
	e.t.Helper()
	path := filepath.Join(e.configDir, DefaultConfigFile)
	data, err := os.ReadFile(path)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, "\ncodeMode: true\n"...), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// resultNamed is the latest result the host gave the model for the tool
// named base (as modelsim.Turn.Offers matches names), and whether there is
// one.
func resultNamed(res turnResult, base string) (string, bool) {
	for _, q := range slices.Backward(res.requests) {
		if r, ok := q.Turn.ResultOf(base); ok {
			return r.Text, true
		}
	}
	return "", false
}

// searchedBeforeScript reports whether a request carries tool_search's
// result before the code-mode tool's.
func searchedBeforeScript(res turnResult) bool {
	for _, q := range res.requests {
		searched := -1
		for i, r := range q.Turn.Results {
			switch {
			case strings.HasSuffix("_"+r.Name, "_tool_search") && searched < 0:
				searched = i
			case strings.HasSuffix("_"+r.Name, "_"+codeModeTool):
				if searched >= 0 {
					return true
				}
			}
		}
	}
	return false
}
