package web

import "testing"

func TestCheckBind(t *testing.T) {
	tests := []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:7777", "", true},
		{"localhost:7777", "", true},
		{"[::1]:7777", "", true},
		{"0.0.0.0:7777", "", false},
		{":7777", "", false},
		{"0.0.0.0:7777", "t", true},
	}
	for _, tt := range tests {
		if err := CheckBind(tt.addr, tt.token); (err == nil) != tt.ok {
			t.Errorf("CheckBind(%q, %q) = %v", tt.addr, tt.token, err)
		}
	}
}
