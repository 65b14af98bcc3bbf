package scan

import (
	"os"
	"path/filepath"
	"testing"
)

// The held-out sources added by issue 43's fifth session (h-fresh), which
// nobody here had read before. Each is a skill scanner's or a demo's own
// attack fixtures; which count as harvesters was fixed from the fixtures'
// names and the source's tests, notes and demo scripts, before any verdict
// of this scanner on them was seen, and they were measured once. A
// harvester is a skill whose own labels say it reads secrets or the user's
// data and sends them away; a fixture that gathers keys and sends nothing,
// or that posts only a host name, is not one (as SkillFortifyBench's A03
// and snyk-labs' toxicskills-goof were left out before).

// clawRankHarvesters are the fixtures of mcdeeai/clawrank-scanner
// (test/fixtures/NAME) that its test suite (test/scanner.test.js) labels as
// credential theft or data exfiltration: malicious-exfil ("credential
// harvesting and network exfil", reading SSH keys and MEMORY.md and sending
// them to a remote host), malicious-webhook-exfil ("webhook exfiltration"
// over Discord and Slack webhooks) and malicious-identity (an identity
// hijack that, the suite asserts, also carries "the data exfil in the same
// file"). The other malicious fixtures hold their harm in what a command
// installs or runs (ClickFix, reverse shell, a dormant remote eval, base64
// hidden payloads, shell execution, config tampering); its clean fixtures
// are written for its tests, not for use, so they are not counted as real
// skills.
var clawRankHarvesters = []string{"malicious-exfil", "malicious-identity", "malicious-webhook-exfil"}

func loadClawRank(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "test/fixtures"), clawRankHarvesters)
}

// malskillHarvesters are the skill fixtures (mode "paths" in
// fixtures/malicious/MANIFEST.json) of ydarwish1/Malskill-Scanner that its
// notes (fixtures/malicious/NOTES.md) say send secrets away:
// sensitive_read_plus_egress ("reads ~/.aws/credentials, ~/.ssh/id_rsa,
// ~/.netrc, a full environment dump" and posts them). credential_path_access
// stockpiles keys with "no egress primitive"; the network_in_offline_claim
// pair posts a file name and the host name, no secret; the others destroy,
// persist, tamper, run remote code or hide orders; the "home" fixtures are
// settings files, not skills. The repository has no snapshot here: the
// session laid out that fixture's two files from read_file.
var malskillHarvesters = []string{"sensitive_read_plus_egress"}

func loadMalskill(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "fixtures/malicious"), malskillHarvesters)
}

// loadASFWeather reads jeffvsutherland/asf-security-scanner's
// example-malicious-weather-skill.md, the recreation of the ClawdHub weather
// skill that stole credentials, which its demo (demo-pre-install.sh) names
// a "credential stealer using webhook.site": one skill, its file the SKILL.md.
// example-docker-skill.md asks for privileged access (not a theft), and
// demo/vulnerable-examples hold vulnerable, not malicious, code.
func loadASFWeather(tb testing.TB, dir string) []sample {
	data, err := os.ReadFile(filepath.Join(dir, "example-malicious-weather-skill.md"))
	if err != nil {
		return nil
	}
	return []sample{{
		id: "example-malicious-weather-skill.md", attack: true, harvest: true,
		skill: []File{{Path: "SKILL.md", Data: data}}, dir: "weather-check",
	}}
}

// loadNamedHarvesters reads the skills root/NAME, each a harvester.
func loadNamedHarvesters(tb testing.TB, root string, names []string) []sample {
	var out []sample
	for _, name := range names {
		for _, s := range loadSkillDirs(tb, "", filepath.Join(root, name), nil) {
			if s.id != "." {
				continue // only the fixture's own SKILL.md
			}
			s.id, s.dir, s.attack, s.harvest = name, name, true, true
			out = append(out, s)
		}
	}
	return out
}

// friskHarvesters are the fixtures of luoojason/frisk
// (test/fixtures/malicious/NAME) that its corpus gate
// (test/corpus.gate.test.ts) files under "exfiltration" and whose own notes
// say what is sent: exfil-creds, base64-exfil, email-exfil, aws-metadata and
// split-exfil read ~/.aws/credentials and send it (PRECISION_REPORT.md;
// split-exfil reads in one script and posts to webhook.site from another),
// cookie-stealer reads the browser's cookies.sqlite, dns-exfil reads
// ~/.ssh/id_rsa and sends it over DNS, gcp-metadata reads the cloud metadata
// service, credential-harvest has the agent ask for a seed phrase and
// transmit it (CHANGELOG.md), silent-telemetry posts session log data to an
// analytics host (CHANGELOG.md: "privacy harm without direct credential
// theft", the user's data sent away unasked). Its injection, poisoning,
// malicious-code and capability fixtures are other attacks; its benign
// fixtures are written for its tests and its benign-real ones are sanitized
// excerpts, so neither counts as real skills.
var friskHarvesters = []string{
	"aws-metadata", "base64-exfil", "cookie-stealer", "credential-harvest", "dns-exfil",
	"email-exfil", "exfil-creds", "gcp-metadata", "silent-telemetry", "split-exfil",
}

func loadFrisk(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "test/fixtures/malicious"), friskHarvesters)
}

// clawFortifyHarvesters are clawfortify's fixtures
// (tests/fixtures/malicious/NAME, each a skill's whole SKILL.md) that its
// tests (tests/test_integration.rs) label credential theft:
// credential-stealer.md (credential_theft, remote_code_execution) and
// data-exfil.md (data_exfiltration, credential_theft). The others are
// mining, obfuscated or encoded commands, prompt injection, agent attacks,
// supply chain and a typosquat; its benign fixtures are written for its
// tests.
var clawFortifyHarvesters = []string{"credential-stealer.md", "data-exfil.md"}

func loadClawFortify(tb testing.TB, dir string) []sample {
	var out []sample
	for _, name := range clawFortifyHarvesters {
		data, err := os.ReadFile(filepath.Join(dir, "tests/fixtures/malicious", name))
		if err != nil {
			continue
		}
		out = append(out, sample{
			id: name, attack: true, harvest: true,
			skill: []File{{Path: "SKILL.md", Data: data}}, dir: name,
		})
	}
	return out
}

// asfFrameworkHarvesters are jeffvsutherland/agent-security-framework's
// example-malicious-skills that its demo summary (ASF-Sprint2-Demo-Summary.md)
// names a credential theft:
// credential-stealer ("a 'Productivity Assistant' that steals
// credentials"). backdoor-skill installs a backdoor, another attack.
var asfFrameworkHarvesters = []string{"credential-stealer"}

func loadASFFramework(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "example-malicious-skills"), asfFrameworkHarvesters)
}

// TestFresh2SourcesLoad checks that each source of this file, when laid
// out, yields every sample its list names: a fixture moved or renamed
// upstream must fail here rather than shrink the held-out figure quietly.
func TestFresh2SourcesLoad(t *testing.T) {
	for _, c := range []struct {
		source string
		load   func(testing.TB, string) []sample
		want   int
	}{
		{"mcdeeai+clawrank-scanner", loadClawRank, len(clawRankHarvesters)},
		{"ydarwish1+Malskill-Scanner", loadMalskill, len(malskillHarvesters)},
		{"jeffvsutherland+asf-security-scanner", loadASFWeather, 1},
		{"jeffvsutherland+agent-security-framework", loadASFFramework, len(asfFrameworkHarvesters)},
		{"luoojason+frisk", loadFrisk, len(friskHarvesters)},
		{"clawfortify+clawfortify", loadClawFortify, len(clawFortifyHarvesters)},
	} {
		dir := filepath.Join(corpusRoot(), c.source)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		got := c.load(t, dir)
		if len(got) != c.want {
			t.Errorf("%s: %d samples, want %d", c.source, len(got), c.want)
		}
		for _, s := range got {
			if !s.attack || !s.harvest || len(s.skill) == 0 {
				t.Errorf("%s %s: attack %v, harvest %v, %d files; want a harvester skill", c.source, s.id, s.attack, s.harvest, len(s.skill))
			}
		}
	}
}
