package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/toolsearch/toolsearch/loader/upstream"
)

// deployDir is examples/deploy, from this package's folder.
const deployDir = "../../examples/deploy"

// TestDeployExamples holds examples/deploy to what toolsearch accepts: the
// configuration the compose file mounts and the ConfigMap's are one text,
// read by the real loader (every key one toolsearch knows); the .mcp.json
// they serve loads without a problem; the Deployment runs three replicas
// probed on /readyz with a grace period past its preStop, and every
// Secret key it names is in the Secret; compose's replicas are the
// servers HAProxy's configuration names.
func TestDeployExamples(t *testing.T) {
	t.Setenv("TOOLSEARCH_PG", "postgres://toolsearch@db/toolsearch")
	t.Setenv("ALICE_TOKEN", "a")
	t.Setenv("BOB_TOKEN", "b")
	yamlText := readDeploy(t, "toolsearch.yaml")
	if _, err := parseConfig(filepath.Join(deployDir, "toolsearch.yaml"), []byte(yamlText)); err != nil {
		t.Errorf("examples/deploy/toolsearch.yaml: %v", err)
	}
	mcpText := readDeploy(t, "mcp.json")
	checkMCPConfig(t, "examples/deploy/mcp.json", mcpText)

	docs := map[string]map[string]any{} // kind -> the manifest
	for _, f := range []string{"configmap.yaml", "deployment.yaml", "service.yaml", "secret.yaml"} {
		for _, d := range decodeYAMLDocs(t, filepath.Join("k8s", f)) {
			kind, _ := d["kind"].(string)
			if kind == "" || docs[kind] != nil {
				t.Fatalf("k8s/%s: a manifest without a kind, or a second %q", f, kind)
			}
			docs[kind] = d
		}
	}
	for _, kind := range []string{"ConfigMap", "Deployment", "Service", "Secret"} {
		if docs[kind] == nil {
			t.Fatalf("examples/deploy/k8s has no %s", kind)
		}
	}

	data := dig(docs["ConfigMap"], "data").(map[string]any)
	cmYAML, _ := data["toolsearch.yaml"].(string)
	if cmYAML != yamlText {
		t.Errorf("the ConfigMap's toolsearch.yaml differs from examples/deploy/toolsearch.yaml:\n%s", cmYAML)
	}
	dir := t.TempDir()
	writeFile(t, dir, "toolsearch.yaml", cmYAML)
	if _, err := loadConfig(filepath.Join(dir, "toolsearch.yaml"), true); err != nil {
		t.Errorf("the ConfigMap's toolsearch.yaml, loaded as a replica loads it: %v", err)
	}
	cmMCP, _ := data[".mcp.json"].(string)
	if cmMCP != mcpText {
		t.Errorf("the ConfigMap's .mcp.json differs from examples/deploy/mcp.json:\n%s", cmMCP)
	}

	dep := docs["Deployment"]
	if n, _ := dig(dep, "spec", "replicas").(int); n != 3 {
		t.Errorf("the Deployment runs %v replicas, want 3", dig(dep, "spec", "replicas"))
	}
	pod := dig(dep, "spec", "template", "spec").(map[string]any)
	c := pod["containers"].([]any)[0].(map[string]any)
	if p := dig(c, "readinessProbe", "httpGet", "path"); p != "/readyz" {
		t.Errorf("the readiness probe asks %v, want /readyz", p)
	}
	grace, _ := pod["terminationGracePeriodSeconds"].(int)
	preStop, _ := dig(c, "lifecycle", "preStop", "sleep", "seconds").(int)
	if preStop == 0 || grace < preStop+30 {
		t.Errorf("terminationGracePeriodSeconds %d must leave the drain 30 s after a preStop of %d s", grace, preStop)
	}
	args := strings.Join(anyStrings(c["args"]), " ")
	if !strings.Contains(args, "--config /config/toolsearch.yaml") || !strings.HasPrefix(args, "serve --http") {
		t.Errorf("the container's args %q do not serve the mounted configuration", args)
	}
	secret := dig(docs["Secret"], "stringData").(map[string]any)
	for _, e := range c["env"].([]any) {
		if ref, ok := dig(e, "valueFrom", "secretKeyRef", "key").(string); ok && secret[ref] == nil {
			t.Errorf("the Deployment's env names the Secret's %q, which the Secret lacks", ref)
		}
		name, _ := dig(e, "name").(string)
		if strings.HasSuffix(name, "_TOKEN") && !strings.Contains(yamlText, "env: "+name) && name != "TOOLSEARCH_TOKEN" {
			t.Errorf("the Deployment sets %s, which toolsearch.yaml's http.tokens do not name", name)
		}
	}
	keyMounted := false
	for _, v := range pod["volumes"].([]any) {
		for _, item := range anySlice(dig(v, "secret", "items")) {
			if dig(item, "key") == "state.key" && dig(item, "path") == "state_key" {
				keyMounted = true
			}
		}
	}
	if !keyMounted || !strings.Contains(yamlText, "keyFile: /run/secrets/state_key") {
		t.Error("the key file toolsearch.yaml names (/run/secrets/state_key) is not the Secret's state.key mounted there")
	}
	if sel := dig(docs["Service"], "spec", "selector", "app.kubernetes.io/name"); sel != dig(dep, "spec", "template", "metadata", "labels", "app.kubernetes.io/name") {
		t.Errorf("the Service selects %v, not the Deployment's pods", sel)
	}

	compose := decodeYAMLDocs(t, "compose.yaml")[0]
	services := compose["services"].(map[string]any)
	var replicas []string
	for name := range services {
		if strings.HasPrefix(name, "toolsearch-") {
			replicas = append(replicas, name)
		}
	}
	slices.Sort(replicas)
	cfg := readDeploy(t, "haproxy.cfg")
	named := regexp.MustCompile(`(?m)^\s*server (\S+) (\S+):8080 check`).FindAllStringSubmatch(cfg, -1)
	var inHAProxy []string
	for _, m := range named {
		inHAProxy = append(inHAProxy, m[2])
	}
	if !slices.Equal(replicas, []string{"toolsearch-1", "toolsearch-2", "toolsearch-3"}) || !slices.Equal(replicas, inHAProxy) {
		t.Errorf("compose's replicas %v are not the servers haproxy.cfg names %v", replicas, inHAProxy)
	}
	if !strings.Contains(cfg, "uri /readyz") {
		t.Error("haproxy.cfg's health check does not ask /readyz")
	}
	for _, name := range replicas {
		svc := services[name].(map[string]any)
		cmd := strings.Join(anyStrings(svc["command"]), " ")
		if cmd != "serve --http "+name+":8080 --config /config/toolsearch.yaml" {
			t.Errorf("compose's %s runs %q", name, cmd)
		}
	}
	anchor := compose["x-toolsearch"].(map[string]any)
	vols := strings.Join(anyStrings(anchor["volumes"]), " ")
	for _, want := range []string{"./toolsearch.yaml:/config/toolsearch.yaml", "./mcp.json:/config/.mcp.json"} {
		if !strings.Contains(vols, want) {
			t.Errorf("compose's replicas do not mount %s", want)
		}
	}
	for _, f := range []string{"./haproxy.cfg:"} {
		if !strings.Contains(strings.Join(anyStrings(services["haproxy"].(map[string]any)["volumes"]), " "), f) {
			t.Errorf("compose's haproxy does not mount %s", f)
		}
	}
}

// checkMCPConfig loads an .mcp.json text with the loader serve uses and
// fails on any problem.
func checkMCPConfig(t *testing.T, name, text string) {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, dir, ".mcp.json", text)
	servers, probs, err := upstream.LoadConfig(filepath.Join(dir, ".mcp.json"))
	if err != nil || len(probs) > 0 || len(servers) == 0 {
		t.Errorf("%s: %v %v (%d servers)", name, err, probs, len(servers))
	}
}

func readDeploy(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(deployDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func decodeYAMLDocs(t *testing.T, name string) []map[string]any {
	t.Helper()
	dec := yaml.NewDecoder(bytes.NewReader([]byte(readDeploy(t, name))))
	var out []map[string]any
	for {
		var d map[string]any
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("examples/deploy/%s: %v", name, err)
		}
		out = append(out, d)
	}
}

// dig follows keys through nested maps; nil when one is missing.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func anySlice(v any) []any { s, _ := v.([]any); return s }

func anyStrings(v any) []string {
	var out []string
	for _, x := range anySlice(v) {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
