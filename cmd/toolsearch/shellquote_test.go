package main

import "strings"

// shellQuote quotes s as one word for sh, for the scripts tests write.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
