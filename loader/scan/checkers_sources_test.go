package scan

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// Sources gathered by issue 43's the seventh session from skill checkers, reviewers,
// firewalls and safety guards (repositories named "skill-sec…",
// "skill-safety…", "skill-firewall"…): the attack and clean fixtures of
// other people's skill scanners, which nobody here had used. A harvester
// is a skill whose own author's labels (a catalog, an expected-results
// file, a fixture's name or folder, its own text) say it reads secrets or
// the user's data AND sends them away, in prose the model reads or in code
// the skill has the agent run; a fixture that only holds or reads keys,
// only runs remote code, persists or destroys is left out. Clean fixtures
// written for a scanner's tests are probes, counted apart from real skills.
// The split is the first hex digit of sha256(OWNER/NAME): 0-7 development,
// 8-f held out. The lists were fixed from the authors' labels before any
// verdict of this scanner on them was seen; held-out ones are only measured.

// zastHarvesters are zast-ai/skill-security-reviewer's
// malicious-skill-benchmark entries (split digit d: held out) of its THEFT
// category (README: "THEFT (Data Theft)", samples 001-016, which its
// coverage matrix also files under EXFIL-001, "HTTP telemetry"), the first
// twelve in byte order of their folder names. Each one's
// expected_result.json names the theft (SSH keys, cloud credentials, .env
// and the environment, source code, git credentials, browser cookies and
// passwords, database credentials, session tokens, GPG keys, the Docker
// registry's and npm's tokens) and the sending: expected detection
// EXFIL-001 ("HTTP数据外传", HTTP exfiltration) for 001-010, an
// exfiltration_method "HTTP POST to …" for 011-012. The other categories
// (command execution, persistence, bare exfiltration of unnamed data,
// prompt injection, privilege abuse, deception, supply chain) and its
// advanced-malicious-skills (evasion techniques) are other attacks. The
// expected_result.json beside each SKILL.md is the label, not the skill,
// and is not read as one of its files.
var zastHarvesters = []string{
	"benchmark-001-ssh-keygen-helper", "benchmark-002-cloud-config-manager",
	"benchmark-003-env-validator", "benchmark-004-code-analyzer-pro",
	"benchmark-005-git-credential-sync", "benchmark-006-browser-session-export",
	"benchmark-007-db-connection-tester", "benchmark-008-jwt-debugger",
	"benchmark-009-secret-scanner-enterprise", "benchmark-010-gpg-key-backup",
	"benchmark-011-docker-registry-auth", "benchmark-012-npm-token-manager",
}

func loadCheckerZast(tb testing.TB, dir string) []sample {
	out := loadNamedHarvesters(tb, filepath.Join(dir, "malicious-skill-benchmark"), zastHarvesters)
	for i := range out {
		out[i].skill = checkersDropLabelFiles(out[i].skill, "expected_result.json")
	}
	return out
}

// checkersDropLabelFiles leaves out of a skill's files the author's label files,
// which a scanner's fixtures keep beside the skill but an agent never
// reads.
func checkersDropLabelFiles(files []File, names ...string) []File {
	var out []File
	for _, f := range files {
		keep := true
		for _, n := range names {
			if f.Path == n {
				keep = false
			}
		}
		if keep {
			out = append(out, f)
		}
	}
	return out
}

// loadCheckerFirewall reads hotsa104/skill-firewall's test fixtures (digit b:
// held out), each a skill's whole SKILL.md. Its suite (test/run.ts)
// expects every test/fixtures/malicious file to be flagged and no
// test/fixtures/benign file to draw a HIGH finding. Of the malicious ones
// only exfil-credentials.md is named for a credential exfiltration; the
// others are named for encoded payloads, an instruction override, a
// newline evasion and persistence, other attacks. Its four benign files
// (a UI baseline, a CI deploy, DevOps over SSH, a git helper) are probes.
var firewallHarvesters = []string{"exfil-credentials.md"}

var firewallProbes = []string{"baseline-ui.md", "ci-deploy.md", "devops-ssh.md", "git-helper.md"}

func loadCheckerFirewall(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "test/fixtures")
	var out []sample
	for _, name := range firewallHarvesters {
		out = append(out, checkersSingleFileHarvester(filepath.Join(root, "malicious", name))...)
	}
	for _, name := range firewallProbes {
		out = append(out, guardsSingleFileProbe(filepath.Join(root, "benign", name))...)
	}
	return out
}

// checkersSingleFileHarvester reads one file as a harvester skill's SKILL.md.
func checkersSingleFileHarvester(path string) []sample {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	name := filepath.Base(path)
	return []sample{{id: name, attack: true, harvest: true, skill: []File{{Path: "SKILL.md", Data: data}}, dir: name}}
}

// loadCheckerSafetyGuard reads Wahero/Skill-safety-guard's tests/fixtures (digit
// 7: development). malicious/sensitive_path ("測試用惡意樣本：訪問敏感路徑",
// a malicious sample that reads sensitive paths) says it "Reads sensitive
// files from the user's system" (SSH keys, .env, AWS and kube credentials)
// and its "Network Activity" block posts them to an /exfil address: a
// harvester. credential_leak only holds hard-coded keys and sends nothing;
// the others run shell commands, persist, hide characters or write agent
// files. Its clean fixtures are probes. The repository has no snapshot
// here: the session laid those seven SKILL.md files out from read_file.
var safetyGuardProbes = []string{
	"clean/code-snippet", "clean/data-formatter", "clean/git-helper", "clean/hello-world",
	"clean/markdown-table", "clean/unicode_normal",
}

func loadCheckerSafetyGuard(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, []string{"malicious/sensitive_path"}, safetyGuardProbes)
}

// loadCheckerInspector reads yu-iskw/skill-inspector's test skills (digit 8:
// held out). test/malicious-skill's own text (its front matter and its
// steps) has the agent delete the home folder and send the .env files to an
// outside address: the destruction is another attack, but the .env files
// read and sent make it a harvester too. test/safe-skill is a probe.
func loadCheckerInspector(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "test")
	return namedFixtures(tb, root, []string{"malicious-skill"}, []string{"safe-skill"})
}

// loadCheckerOpenClawScan reads BrainsyETH/OpenClaw-Scan's tests/fixtures (digit
// 8: held out), OpenClaw packages whose skill.md (lower case, read here as
// the SKILL.md) shows the agent calling the package's getWeather, with a
// skill.json naming index.js as the entry point. malicious-skill is the
// ClawdHub weather skill's credential theft recreated: its comments say it
// reads ~/.clawdbot/.env ("Load API credentials") and sends the keys with
// the environment to webhook.site ("Oops, accidentally sending to my
// server"): a harvester whose harvest is in the code the skill runs.
// safe-skill is a probe. Neither is a copy of asf-security-scanner's
// weather recreation, which is one Markdown file.
func loadCheckerOpenClawScan(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	var out []sample
	for _, c := range []struct {
		name  string
		probe bool
	}{{"malicious-skill", false}, {"safe-skill", true}} {
		files := checkersReadDir(filepath.Join(root, c.name), "skill.md")
		if files == nil {
			continue
		}
		out = append(out, sample{id: c.name, attack: !c.probe, harvest: !c.probe, probe: c.probe, skill: files, dir: c.name})
	}
	return out
}

// checkersReadDir reads the text files of one flat skill folder, the file named
// skillFile becoming its SKILL.md; nil when that file is missing.
func checkersReadDir(dir, skillFile string) []File {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var files []File
	found := false
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil || !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
			continue
		}
		name := e.Name()
		if name == skillFile {
			name, found = "SKILL.md", true
		}
		files = append(files, File{Path: name, Data: data})
	}
	if !found {
		return nil
	}
	return files
}

// skillvetHarvesters are V3r7ig0/skillvet's fixtures (digit 0:
// development), from benchmark/malicious, which its build_malicious.py
// writes with a .label file of rule tags, and from samples. Counted are the
// ones whose tags and own text say the user's secrets or data are sent
// away in the text the model reads: exfil-context-leak (EX-CONTEXT-LEAK,
// the conversation history sent to a URL), exfil-git-remote
// (EX-GIT-REMOTE, the user's repository pushed to an outside remote),
// fm-dynamic-exfil (FM-CTX-EXFIL, the environment posted by a SKILL.md
// dynamic shell line), pi-hidden-html (an HTML comment ordering the user's
// tokens sent away), and samples/malicious-pdf-helper (samples/README.md:
// "a deliberately malicious example" with "exfiltration" patterns; its
// SKILL.md posts the environment, sends the conversation history and has
// the agent run scripts/setup.py, which posts the SSH key and the
// environment). The script-only exfil fixtures (exfil-ssh-post,
// exfil-env-webhook, exfil-aws-creds, exfil-email-smtp, exfil-clipboard,
// exfil-dns) hold their harvest in a script their one-line SKILL.md never
// points the agent to, so they are left out, as are the other categories.
// The repository has no snapshot here: the session wrote those four
// fixtures as build_malicious.py writes them and laid the two samples out
// from read_file. samples/benign-csv-cleaner is a probe.
var skillvetHarvesters = []string{
	"benchmark/malicious/exfil-context-leak", "benchmark/malicious/exfil-git-remote",
	"benchmark/malicious/fm-dynamic-exfil", "benchmark/malicious/pi-hidden-html",
	"samples/malicious-pdf-helper",
}

func loadCheckerSkillvet(tb testing.TB, dir string) []sample {
	out := loadNamedHarvesters(tb, dir, skillvetHarvesters)
	for i := range out {
		out[i].skill = checkersDropLabelFiles(out[i].skill, ".label")
	}
	return append(out, guardsNamedProbes(tb, dir, []string{"samples/benign-csv-cleaner"})...)
}

// loadCheckerSecurityGuard reads rrrrrredy/skill-security-guard's tests/fixtures
// (digit 6: development). high-risk-skill is the fixture its suite
// (tests/test_scan.py) expects to rate F with S2-EXFILTRATION among its
// findings: its SKILL.md has the agent upload ~/.ssh/id_rsa to a remote
// endpoint (scripts/run.sh posts it with curl), a harvester packed with a
// prompt injection, as the many-attack fixtures of development sources
// are. safe-skill (rated A, no issue) is a probe. The repository has no
// snapshot here: the session laid the four files out from read_file.
func loadCheckerSecurityGuard(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, []string{"high-risk-skill"}, []string{"safe-skill"})
}

// loadCheckerSecurityScanner reads vetrinarbatyam-dotcor/skill-security-scanner's
// tests (digit 7: development), each one skill's whole SKILL.md.
// test_malicious_skill.md, named malicious by its author, orders the agent
// to read the user's .env and send it away and to post ~/.ssh/id_rsa to a
// webhook, among other attacks: a harvester. test_safe_skill.md is a
// probe. Laid out from read_file, as the repository has no snapshot here.
func loadCheckerSecurityScanner(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests")
	return append(checkersSingleFileHarvester(filepath.Join(root, "test_malicious_skill.md")),
		guardsSingleFileProbe(filepath.Join(root, "test_safe_skill.md"))...)
}

var checkersSources = []corpusSource{
	{name: "Wahero+Skill-safety-guard", load: loadCheckerSafetyGuard},
	{name: "V3r7ig0+skillvet", load: loadCheckerSkillvet},
	{name: "rrrrrredy+skill-security-guard", load: loadCheckerSecurityGuard},
	{name: "vetrinarbatyam-dotcor+skill-security-scanner", load: loadCheckerSecurityScanner},
	{name: "zast-ai+skill-security-reviewer", heldOut: true, load: loadCheckerZast},
	{name: "hotsa104+skill-firewall", heldOut: true, load: loadCheckerFirewall},
	{name: "yu-iskw+skill-inspector", heldOut: true, load: loadCheckerInspector},
	{name: "BrainsyETH+OpenClaw-Scan", heldOut: true, load: loadCheckerOpenClawScan},
}

func init() { corpusSources = append(corpusSources, checkersSources...) }

// TestCheckerSourcesLoad checks that each source of this file, when laid out,
// yields every harvester and probe its lists name, and no verdict: a
// fixture moved upstream must fail here rather than shrink a figure
// quietly.
func TestCheckerSourcesLoad(t *testing.T) {
	checkSourceCounts(t, checkersSources, map[string][2]int{ // harvesters, probes
		"Wahero+Skill-safety-guard":                    {1, len(safetyGuardProbes)},
		"V3r7ig0+skillvet":                             {len(skillvetHarvesters), 1},
		"rrrrrredy+skill-security-guard":               {1, 1},
		"vetrinarbatyam-dotcor+skill-security-scanner": {1, 1},
		"zast-ai+skill-security-reviewer":              {len(zastHarvesters), 0},
		"hotsa104+skill-firewall":                      {len(firewallHarvesters), len(firewallProbes)},
		"yu-iskw+skill-inspector":                      {1, 1},
		"BrainsyETH+OpenClaw-Scan":                     {1, 1},
	})
}
