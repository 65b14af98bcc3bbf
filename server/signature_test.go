package server

import (
	"encoding/json"
	"testing"
)

func TestSignature(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{"no params", `{"type":"object"}`, "f()"},
		{"required first, order kept", `{"type":"object","properties":{"b":{"type":"integer"},"a":{"type":"string"}},"required":["a"]}`, "f(a: string, b?: integer)"},
		{"enum", `{"type":"object","properties":{"unit":{"type":"string","enum":["c","f"]}}}`, `f(unit?: "c"|"f")`},
		{"long enum falls back to the type", `{"type":"object","properties":{"d":{"type":"string","enum":["1","2","3","4","5","6","7"]}}}`, "f(d?: string)"},
		{"array of strings", `{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}}},"required":["tags"]}`, "f(tags: string[])"},
		{"nullable", `{"type":"object","properties":{"x":{"type":["string","null"]}}}`, "f(x?: string|null)"},
		{"anyOf", `{"type":"object","properties":{"x":{"anyOf":[{"type":"string"},{"type":"number"}]}}}`, "f(x?: string|number)"},
		{"untyped", `{"type":"object","properties":{"x":{}}}`, "f(x?: any)"},
		{"many optional are elided, required never", `{"type":"object","properties":{"o1":{},"o2":{},"o3":{},"o4":{},"o5":{},"o6":{},"o7":{},"o8":{},"o9":{},"o10":{},"o11":{},"r":{"type":"string"}},"required":["r"]}`,
			"f(r: string, o1?: any, o2?: any, o3?: any, o4?: any, o5?: any, o6?: any, o7?: any, o8?: any, o9?: any, …2 more optional)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Signature("f", json.RawMessage(tt.schema)); got != tt.want {
				t.Errorf("Signature = %q, want %q", got, tt.want)
			}
		})
	}
}
