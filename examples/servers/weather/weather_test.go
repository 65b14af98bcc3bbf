package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect starts the weather server in-process and returns a client session.
func connect(t *testing.T) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := newServer(slog.New(slog.NewTextHandler(io.Discard, nil))).Connect(ctx, serverT, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, clientT, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_weather", Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%v): protocol error %v", args, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func report(t *testing.T, res *mcp.CallToolResult) weatherReport {
	t.Helper()
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var r weatherReport
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("structured content %s: %v", raw, err)
	}
	return r
}

func TestListTools(t *testing.T) {
	cs := connect(t)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 {
		t.Fatalf("got %d tools, want 1", len(res.Tools))
	}
	tool := res.Tools[0]
	if tool.Name != "get_weather" {
		t.Errorf("tool name = %q, want get_weather", tool.Name)
	}
	if tool.Description == "" {
		t.Error("tool has no description")
	}
	a := tool.Annotations
	if a == nil || !a.ReadOnlyHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
		t.Errorf("annotations = %+v, want readOnlyHint true and openWorldHint false", a)
	}
	if tool.OutputSchema == nil {
		t.Error("tool has no output schema")
	}
	schema, _ := json.Marshal(tool.InputSchema)
	for _, want := range []string{`"city"`, `"required":["city"]`, `"enum":["metric","imperial"]`, `"default":"metric"`} {
		if !strings.Contains(string(schema), want) {
			t.Errorf("input schema %s lacks %s", schema, want)
		}
	}
}

func TestGetWeatherDeterministic(t *testing.T) {
	cs := connect(t)
	tests := []struct {
		name string
		a, b map[string]any // calls that must give the same report
	}{
		{"same call twice", map[string]any{"city": "Paris"}, map[string]any{"city": "Paris"}},
		{"case and spaces ignored", map[string]any{"city": "new york"}, map[string]any{"city": "  NEW   York "}},
		{"metric is the default", map[string]any{"city": "Oslo"}, map[string]any{"city": "Oslo", "units": "metric"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ra, rb := call(t, cs, tt.a), call(t, cs, tt.b)
			if ra.IsError || rb.IsError {
				t.Fatalf("unexpected tool error: %q / %q", text(ra), text(rb))
			}
			wa, wb := report(t, ra), report(t, rb)
			wa.City, wb.City = "", "" // the echoed name keeps the caller's case
			if wa != wb {
				t.Errorf("reports differ:\n%+v\n%+v", wa, wb)
			}
		})
	}
}

func TestGetWeatherContent(t *testing.T) {
	cs := connect(t)
	tests := []struct {
		units            string
		tempUnit, spdUnt string
	}{
		{"metric", "°C", "km/h"},
		{"imperial", "°F", "mph"},
	}
	for _, tt := range tests {
		t.Run(tt.units, func(t *testing.T) {
			res := call(t, cs, map[string]any{"city": "Tokyo", "units": tt.units})
			r := report(t, res)
			if r.City != "Tokyo" || r.Units != tt.units || r.TemperatureUnit != tt.tempUnit || r.WindSpeedUnit != tt.spdUnt {
				t.Errorf("report = %+v", r)
			}
			if r.HumidityPercent < 0 || r.HumidityPercent > 100 || r.Conditions == "" || r.WindDirection == "" {
				t.Errorf("implausible report %+v", r)
			}
			got := text(res)
			for _, want := range []string{"Tokyo", tt.tempUnit, tt.spdUnt, r.Conditions} {
				if !strings.Contains(got, want) {
					t.Errorf("text %q lacks %q", got, want)
				}
			}
		})
	}

	// Different cities should not all collapse to the same weather.
	if report(t, call(t, cs, map[string]any{"city": "Cairo"})) == report(t, call(t, cs, map[string]any{"city": "Reykjavik"})) {
		t.Error("Cairo and Reykjavik have identical weather")
	}
}

func TestGetWeatherImperialConversion(t *testing.T) {
	m := forecast("Madrid", metric)
	i := forecast("Madrid", imperial)
	if want := round1(m.Temperature*9/5 + 32); i.Temperature != want {
		t.Errorf("imperial temperature = %v, want %v", i.Temperature, want)
	}
	if i.Conditions != m.Conditions || i.HumidityPercent != m.HumidityPercent || i.WindDirection != m.WindDirection {
		t.Errorf("unit change altered the weather: %+v vs %+v", m, i)
	}
}

func TestGetWeatherErrors(t *testing.T) {
	cs := connect(t)
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"missing city", map[string]any{}, `missing properties: ["city"]`},
		{"empty city", map[string]any{"city": ""}, "city is required"},
		{"blank city", map[string]any{"city": "   "}, "city is required"},
		{"bad units", map[string]any{"city": "Rome", "units": "kelvin"}, "does not equal any of: [metric imperial]"},
		{"units are case-sensitive", map[string]any{"city": "Rome", "units": "Imperial"}, "does not equal any of"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, cs, tt.args)
			if !res.IsError {
				t.Fatalf("want tool error, got %q", text(res))
			}
			if !strings.Contains(text(res), tt.want) {
				t.Errorf("error %q lacks %q", text(res), tt.want)
			}
		})
	}
}
