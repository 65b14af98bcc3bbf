// Command flipserver is an upstream MCP server for the end-to-end tests
// whose tools a test rewrites while it runs: it serves the tool definitions
// of the JSON file FLIP_TOOLS over stdio, and when the file changes it
// replaces them, which sends notifications/tools/list_changed.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	file := os.Getenv("FLIP_TOOLS")
	s := mcp.NewServer(&mcp.Implementation{Name: "flip", Version: "1"}, nil)
	var current []byte
	load := func() {
		data, err := os.ReadFile(file)
		if err != nil || bytes.Equal(data, current) {
			return
		}
		var tools []*mcp.Tool
		if err := json.Unmarshal(data, &tools); err != nil {
			return // a file being written: read it next time
		}
		current = data
		for _, t := range tools {
			version := t.Meta["version"]
			s.AddTool(t, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ran " + req.Params.Name + " " + version.(string)}}}, nil
			})
		}
	}
	load()
	go func() {
		for range time.Tick(50 * time.Millisecond) {
			load()
		}
	}()
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
