package main

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/toolsearch/toolsearch/internal/suggest"
)

// yamlLineRE finds the line yaml.v3 gives an error ("line 4: …" or
// "yaml: line 4: …"); unknownFieldRE, an unknown key among them.
var (
	yamlLineRE     = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
	unknownFieldRE = regexp.MustCompile(`^field (\S+) not found in type (\S+)$`)
)

// describeYAMLError turns yaml.v3's error for toolsearch.yaml into one
// line per problem, each file:line[:column]: what is wrong, the form
// editors jump to: an unknown key at its line and column, with the key
// meant when it is one typo away from one. yaml.v3 gives a syntax error's
// line only.
func describeYAMLError(path string, data []byte, err error) error {
	var lines []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		lines = te.Errors
	} else {
		lines = []string{err.Error()}
	}
	var root yaml.Node
	_ = yaml.Unmarshal(data, &root) // for columns; a type error is no syntax error
	keys := yamlKeys(reflect.TypeFor[Config]())
	var out []string
	for _, l := range lines {
		m := yamlLineRE.FindStringSubmatch(l)
		if m == nil {
			out = append(out, fmt.Sprintf("%s: %s", path, strings.TrimPrefix(l, "yaml: ")))
			continue
		}
		line, _ := strconv.Atoi(m[1])
		msg, where := m[2], fmt.Sprintf("%s:%d", path, line)
		if f := unknownFieldRE.FindStringSubmatch(msg); f != nil {
			if col := keyColumn(&root, line, f[1]); col > 0 {
				where += ":" + strconv.Itoa(col)
			}
			msg = "unknown key " + f[1] + suggest.Hint(f[1], keys[f[2]])
		}
		out = append(out, where+": "+msg)
	}
	return errors.New(strings.Join(out, "\n"))
}

// keyColumn is the column of the mapping key name on line, 0 if none.
func keyColumn(n *yaml.Node, line int, name string) int {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Line == line && k.Value == name {
				return k.Column
			}
		}
	}
	for _, c := range n.Content {
		if col := keyColumn(c, line, name); col > 0 {
			return col
		}
	}
	return 0
}

// yamlKeys maps each struct type reachable from t, by the name yaml.v3
// gives it in errors (main.ServerSettings), to its keys.
func yamlKeys(t reflect.Type) map[string][]string {
	out := map[string][]string{}
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || out[t.String()] != nil {
			return
		}
		out[t.String()] = []string{}
		for f := range t.Fields() {
			key, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if !f.IsExported() || key == "-" || key == "" {
				continue
			}
			out[t.String()] = append(out[t.String()], key)
			walk(f.Type)
		}
	}
	walk(t)
	return out
}
