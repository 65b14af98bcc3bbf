package main

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A task is one to-do item.
type task struct {
	ID    int    `json:"id" jsonschema:"The task's number, for complete_task."`
	Title string `json:"title" jsonschema:"What is to be done."`
	Done  bool   `json:"done" jsonschema:"Whether it is done."`
}

// board keeps each user's tasks in memory; the user is whoever the access
// token was issued to.
type board struct {
	mu    sync.Mutex
	tasks map[string][]task
}

type addInput struct {
	Title string `json:"title" jsonschema:"What is to be done, in a few words."`
}

type listInput struct {
	Open bool `json:"open,omitempty" jsonschema:"true lists only the tasks not done yet."`
}

type completeInput struct {
	ID int `json:"id" jsonschema:"The task's number, as add_task or list_tasks gave it."`
}

type taskList struct {
	Tasks []task `json:"tasks" jsonschema:"The tasks, oldest first."`
}

// newServer returns the tasks MCP server. Who calls is known from the
// bearer token that auth.RequireBearerToken checked.
func newServer(logger *slog.Logger) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{
		Name:    "tasks",
		Title:   "Example to-do list behind OAuth",
		Version: "v0.1.0",
	}, &mcp.ServerOptions{Logger: logger})
	b := &board{tasks: map[string][]task{}}
	mcp.AddTool(server, &mcp.Tool{
		Name:        "add_task",
		Description: "Add a task to the signed-in user's to-do list and return it with its number.",
	}, b.add)
	mcp.AddTool(server, &mcp.Tool{
		Name:        "list_tasks",
		Description: "List the signed-in user's tasks, oldest first; open=true leaves out the done ones.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, b.list)
	mcp.AddTool(server, &mcp.Tool{
		Name:        "complete_task",
		Description: "Mark one of the signed-in user's tasks done, by its number.",
		Annotations: &mcp.ToolAnnotations{IdempotentHint: true},
	}, b.complete)
	return server
}

// user returns who the request's token was issued to.
func user(req *mcp.CallToolRequest) string {
	if req.Extra != nil && req.Extra.TokenInfo != nil {
		return req.Extra.TokenInfo.UserID
	}
	return ""
}

func (b *board) add(_ context.Context, req *mcp.CallToolRequest, in addInput) (*mcp.CallToolResult, task, error) {
	title := strings.TrimSpace(in.Title)
	if title == "" {
		return nil, task{}, fmt.Errorf("title is empty: say what is to be done")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	u := user(req)
	t := task{ID: len(b.tasks[u]) + 1, Title: title}
	b.tasks[u] = append(b.tasks[u], t)
	return text(fmt.Sprintf("Added task %d: %s", t.ID, t.Title)), t, nil
}

func (b *board) list(_ context.Context, req *mcp.CallToolRequest, in listInput) (*mcp.CallToolResult, taskList, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := taskList{Tasks: []task{}}
	var lines []string
	for _, t := range b.tasks[user(req)] {
		if in.Open && t.Done {
			continue
		}
		out.Tasks = append(out.Tasks, t)
		mark := " "
		if t.Done {
			mark = "x"
		}
		lines = append(lines, fmt.Sprintf("[%s] %d. %s", mark, t.ID, t.Title))
	}
	if len(lines) == 0 {
		return text("No tasks."), out, nil
	}
	return text(strings.Join(lines, "\n")), out, nil
}

func (b *board) complete(_ context.Context, req *mcp.CallToolRequest, in completeInput) (*mcp.CallToolResult, task, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ts := b.tasks[user(req)]
	i := slices.IndexFunc(ts, func(t task) bool { return t.ID == in.ID })
	if i < 0 {
		return nil, task{}, fmt.Errorf("there is no task %d: list_tasks shows the numbers", in.ID)
	}
	ts[i].Done = true
	return text(fmt.Sprintf("Done: %d. %s", ts[i].ID, ts[i].Title)), ts[i], nil
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}
