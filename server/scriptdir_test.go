package server

import "testing"

func TestRootFolder(t *testing.T) {
	tests := []struct {
		uri, goos, want string
	}{
		{"file:///home/ada/project", "linux", "/home/ada/project"},
		{"file:///home/ada/my%20project/", "linux", "/home/ada/my project"},
		{"file://localhost/srv/x", "linux", "/srv/x"},
		{"file:///C:/work/project", "windows", `C:\work\project`},
		{"file:///work", "windows", ""},
		{"file://server/share/x", "linux", ""},
		{"https://example.com/project", "linux", ""},
		{"project", "linux", ""},
		{"file:", "linux", ""},
		{"%zz", "linux", ""},
	}
	for _, tt := range tests {
		got, ok := rootFolder(tt.uri, tt.goos)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("rootFolder(%q, %s) = %q, %v; want %q", tt.uri, tt.goos, got, ok, tt.want)
		}
	}
}
