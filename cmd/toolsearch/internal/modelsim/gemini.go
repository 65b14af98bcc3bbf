package modelsim

import (
	"encoding/json"
	"net/http"
	"strings"
)

// geminiRequest is the part of a generateContent request a turn is read
// from.
type geminiRequest struct {
	Contents []struct {
		Role  string `json:"role"`
		Parts []struct {
			Text         string `json:"text"`
			FunctionCall *struct {
				Name string `json:"name"`
			} `json:"functionCall"`
			FunctionResponse *struct {
				Name     string          `json:"name"`
				Response json.RawMessage `json:"response"`
			} `json:"functionResponse"`
		} `json:"parts"`
	} `json:"contents"`
	Tools json.RawMessage `json:"tools"`
}

func (s *Server) gemini(w http.ResponseWriter, r *http.Request, body []byte, rec *Request) {
	_, method, _ := strings.Cut(r.URL.Path, ":")
	if method == "countTokens" {
		writeJSON(w, map[string]any{"totalTokens": approxTokens(body)})
		return
	}
	if method != "streamGenerateContent" && method != "generateContent" {
		http.NotFound(w, r)
		return
	}
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"code":400,"message":"body is not JSON","status":"INVALID_ARGUMENT"}}`, http.StatusBadRequest)
		return
	}
	rec.Tools = req.Tools
	turn := Turn{API: "gemini"}
	var tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	}
	json.Unmarshal(req.Tools, &tools)
	for _, t := range tools {
		for _, f := range t.FunctionDeclarations {
			turn.Tools = append(turn.Tools, f.Name)
		}
	}
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			switch {
			case p.FunctionResponse != nil:
				turn.Results = append(turn.Results, Result{Name: p.FunctionResponse.Name, Text: flatten(p.FunctionResponse.Response)})
			case p.Text != "" && c.Role == "user" && turn.Prompt == "":
				turn.Prompt = p.Text
			}
		}
	}
	reply := s.answer(turn, rec)

	var part map[string]any
	if reply.Call != nil {
		args := reply.Call.Args
		if args == nil {
			args = map[string]any{}
		}
		part = map[string]any{"functionCall": map[string]any{"name": reply.Call.Name, "args": args}}
	} else {
		part = map[string]any{"text": reply.Text}
	}
	in := approxTokens(body)
	resp := map[string]any{
		"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": in, "candidatesTokenCount": 10, "totalTokenCount": in + 10},
		"modelVersion":  "modelsim",
	}
	if method == "generateContent" {
		writeJSON(w, resp)
		return
	}
	newSSE(w).event("", resp)
}
