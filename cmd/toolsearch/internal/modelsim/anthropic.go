package modelsim

import (
	"encoding/json"
	"net/http"
)

// anthropicRequest is the part of a Messages request a turn is read from.
type anthropicRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"` // a string or content blocks
	} `json:"messages"`
	Tools json.RawMessage `json:"tools"`
}

type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
}

func (s *Server) anthropic(w http.ResponseWriter, body []byte, rec *Request) {
	var req anthropicRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"body is not JSON"}}`, http.StatusBadRequest)
		return
	}
	rec.Tools = req.Tools
	turn := Turn{API: "anthropic"}
	var tools []struct {
		Name  string `json:"name"`
		Defer bool   `json:"defer_loading"`
	}
	json.Unmarshal(req.Tools, &tools)
	for _, t := range tools {
		if t.Defer {
			turn.Deferred = append(turn.Deferred, t.Name)
		} else {
			turn.Tools = append(turn.Tools, t.Name)
		}
	}
	names := map[string]string{} // tool_use id -> tool name
	for _, m := range req.Messages {
		var text string
		if json.Unmarshal(m.Content, &text) == nil {
			if m.Role == "user" && turn.Prompt == "" {
				turn.Prompt = text
			}
			continue
		}
		var blocks []anthropicBlock
		json.Unmarshal(m.Content, &blocks)
		for _, b := range blocks {
			switch b.Type {
			case "text":
				if m.Role == "user" && turn.Prompt == "" {
					turn.Prompt = b.Text
				}
			case "tool_use":
				names[b.ID] = b.Name
			case "tool_result":
				turn.Results = append(turn.Results, Result{Name: names[b.ToolUseID], Text: flatten(b.Content)})
			}
		}
	}
	reply := s.answer(turn, rec)

	id := s.nextID("msg")
	var block map[string]any
	var delta map[string]any
	stop := "end_turn"
	if reply.Call != nil {
		stop = "tool_use"
		block = map[string]any{"type": "tool_use", "id": s.nextID("toolu"), "name": reply.Call.Name, "input": map[string]any{}}
		delta = map[string]any{"type": "input_json_delta", "partial_json": argsJSON(reply.Call)}
	} else {
		block = map[string]any{"type": "text", "text": ""}
		delta = map[string]any{"type": "text_delta", "text": reply.Text}
	}
	usage := map[string]any{"input_tokens": approxTokens(body), "output_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	if !req.Stream {
		final := map[string]any{}
		for k, v := range block {
			final[k] = v
		}
		if reply.Call != nil {
			final["input"] = reply.Call.Args
			if reply.Call.Args == nil {
				final["input"] = map[string]any{}
			}
		} else {
			final["text"] = reply.Text
		}
		writeJSON(w, map[string]any{"id": id, "type": "message", "role": "assistant", "model": req.Model,
			"content": []any{final}, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	e := newSSE(w)
	e.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": req.Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	e.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": block})
	e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": delta})
	e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	e.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 10}})
	e.event("message_stop", map[string]any{"type": "message_stop"})
}
