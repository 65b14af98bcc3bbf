package modelsim

import (
	"encoding/json"
	"net/http"
	"strings"
)

// openaiRequest is the part of a Responses request a turn is read from.
type openaiRequest struct {
	Model string          `json:"model"`
	Tools json.RawMessage `json:"tools"`
	Input []struct {
		Type      string          `json:"type"`
		Role      string          `json:"role"`
		Content   json.RawMessage `json:"content"`
		Name      string          `json:"name"`
		Namespace string          `json:"namespace"`
		CallID    string          `json:"call_id"`
		Output    json.RawMessage `json:"output"`
	} `json:"input"`
}

// openaiTool is a tool of a Responses request: a function, or a namespace
// of functions (name "mcp__server__" and tools of their own).
type openaiTool struct {
	Type  string       `json:"type"`
	Name  string       `json:"name"`
	Tools []openaiTool `json:"tools"`
}

func (s *Server) openai(w http.ResponseWriter, body []byte, rec *Request) {
	var req openaiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"message":"body is not JSON"}}`, http.StatusBadRequest)
		return
	}
	rec.Tools = req.Tools
	turn := Turn{API: "openai"}
	var tools []openaiTool
	json.Unmarshal(req.Tools, &tools)
	// A namespaced tool is offered as NAMESPACE__NAME, as Claude Code names
	// MCP tools; a call to it names both.
	namespaced := map[string][2]string{}
	for _, t := range tools {
		if t.Type != "namespace" {
			if t.Name != "" {
				turn.Tools = append(turn.Tools, t.Name)
			}
			continue
		}
		for _, f := range t.Tools {
			full := strings.TrimSuffix(t.Name, "__") + "__" + f.Name
			namespaced[full] = [2]string{t.Name, f.Name}
			turn.Tools = append(turn.Tools, full)
		}
	}
	names := map[string]string{} // call id -> tool name
	for _, item := range req.Input {
		switch item.Type {
		case "message":
			if item.Role == "user" && turn.Prompt == "" {
				var parts []struct {
					Text string `json:"text"`
				}
				json.Unmarshal(item.Content, &parts)
				if len(parts) > 0 {
					turn.Prompt = parts[len(parts)-1].Text
				}
			}
		case "function_call":
			names[item.CallID] = item.Name
			if item.Namespace != "" {
				names[item.CallID] = strings.TrimSuffix(item.Namespace, "__") + "__" + item.Name
			}
		case "function_call_output":
			turn.Results = append(turn.Results, Result{Name: names[item.CallID], Text: flatten(item.Output)})
		}
	}
	reply := s.answer(turn, rec)

	respID := s.nextID("resp")
	var item map[string]any
	if reply.Call != nil {
		item = map[string]any{"type": "function_call", "id": s.nextID("fc"), "call_id": s.nextID("call"),
			"name": reply.Call.Name, "arguments": argsJSON(reply.Call), "status": "completed"}
		if ns, ok := namespaced[reply.Call.Name]; ok {
			item["namespace"], item["name"] = ns[0], ns[1]
		}
	} else {
		item = map[string]any{"type": "message", "id": s.nextID("msg"), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": reply.Text, "annotations": []any{}}}}
	}
	e := newSSE(w)
	e.event("response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": respID, "model": req.Model}})
	e.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	if reply.Call == nil {
		e.event("response.output_text.delta", map[string]any{"type": "response.output_text.delta", "item_id": item["id"], "output_index": 0, "content_index": 0, "delta": reply.Text})
	}
	e.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	in := approxTokens(body)
	e.event("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
		"id": respID, "model": req.Model, "status": "completed", "output": []any{item},
		"usage": map[string]any{"input_tokens": in, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 10, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": in + 10}}})
}
