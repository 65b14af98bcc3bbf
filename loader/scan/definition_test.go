package scan

import "testing"

func TestFileKind(t *testing.T) {
	for _, tc := range []struct {
		path, data string
		want       kind
	}{
		{"SKILL.md", "# Skill", kindSkill},
		{"NOTES", "Some notes.", kindSkill},
		{"docs/guide.txt", "#!/bin/sh\n", kindSkill},
		{"scripts/run.py", "print(1)", kindCode},
		{"scripts/vault-keychain-helper", "#!/usr/bin/env bash\necho", kindCode},
		{"hooks/pre-commit", "#!/bin/sh\nexit 0", kindCode},
		{"Makefile", "all:\n\tgo build", kindCode},
		{"docker/Dockerfile", "FROM alpine", kindCode},
		{"fastlane/Fastfile", "lane :beta do\nend", kindCode},
		{"ios/Podfile", "platform :ios, '15.0'", kindCode},
	} {
		if got := fileKind(File{Path: tc.path, Data: []byte(tc.data)}); got != tc.want {
			t.Errorf("fileKind(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}
