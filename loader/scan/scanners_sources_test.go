package scan

import (
	"os"
	"path/filepath"
	"testing"
)

// Sources gathered by issue 43's seventh session from skill scanners: the attack fixtures of other
// people's skill scanners and benchmarks (repositories named *skill-scan*,
// *skillscan*, *skill_scan*, *skill-scanner*), none read here before. Which
// fixtures count was fixed from each author's own labels (an index, an
// expected-results file, test assertions, a category in the fixture's
// path), before any verdict of this scanner on them was seen. A harvester
// is a skill whose author says it reads secrets or the user's private data
// and sends them away, in text the model reads or in a script the skill
// tells the agent to run; a fixture that gathers and sends nothing, sends a
// made-up value, or only describes an attack it does not order is not one.
// Clean fixtures written for a scanner's tests are laid out as probes. The
// split is the first hex digit of sha256("OWNER/NAME"): 0-7 development,
// 8-f held out. At most 12 harvesters come from one source.

// scannersDirs reads the skills root/NAME (each a folder whose SKILL.md is at its
// top), as harvesters when harvest is set and as probes otherwise.
func scannersDirs(tb testing.TB, root string, names []string, harvest bool) []sample {
	var out []sample
	for _, name := range names {
		for _, s := range loadSkillDirs(tb, "", filepath.Join(root, name), nil) {
			if s.id != "." {
				continue // only the fixture's own SKILL.md
			}
			s.id, s.dir = name, filepath.Base(name)
			s.attack, s.harvest, s.probe = harvest, harvest, !harvest
			out = append(out, s)
		}
	}
	return out
}

// scannersFiles reads the single-file skills root/NAME, each read as one skill's
// SKILL.md, as harvesters when harvest is set and as probes otherwise.
func scannersFiles(root string, names []string, harvest bool) []sample {
	var out []sample
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			continue
		}
		out = append(out, sample{
			id: name, attack: harvest, harvest: harvest, probe: !harvest,
			skill: []File{{Path: "SKILL.md", Data: data}}, dir: filepath.Base(name),
		})
	}
	return out
}

// scannersEdgecasesHarvesters are the fixtures of edgecases-PurpleHax/skillscan
// (test/corpus/NAME, each a whole SKILL.md; development, digit 2) that its
// labels (test/corpus/corpus.json: label, categories, description) file as
// exfiltration of a secret or the project's configuration to an outside
// endpoint: obvious/exfiltration-001 ("network exfiltration via curl with
// env var expansion"), moderate/exfiltration-001 (".env read framed as env
// validation, curl exfiltration as monitoring"), subtle/exfiltration-001
// ("collects config and delivers to external endpoint"), subtle/chain-001
// ("reads config and transmits it to an external channel") and
// obvious/obfuscation-001 ("base64 payload that decodes to an exfiltration
// command": all secrets sent to an outside host). obvious/exfiltration-002
// and moderate/chain-001 read a secret and echo it, sending nothing; the
// other categories are injection, tool abuse, hidden text, social
// engineering and permission escalation. Its real-world folder holds
// published skills under another benchmark's labels, most of them plain
// ordinary skills, so it is not counted.
var scannersEdgecasesHarvesters = []string{
	"malicious/moderate/exfiltration-001.md",
	"malicious/obvious/exfiltration-001.md",
	"malicious/obvious/obfuscation-001.md",
	"malicious/subtle/chain-001.md",
	"malicious/subtle/exfiltration-001.md",
}

// scannersEdgecasesProbes are its benign fixtures written for the corpus
// (corpus.json: "Legitimate … skill"); benign/real-world holds published
// skills and is left out.
var scannersEdgecasesProbes = []string{
	"benign/api-development.md", "benign/code-review.md", "benign/database-migration.md",
	"benign/debugging.md", "benign/deploy.md", "benign/documentation.md",
	"benign/git-workflow.md", "benign/onboarding.md", "benign/security-audit.md",
	"benign/testing.md",
}

func loadScannerEdgecases(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "test/corpus")
	return append(scannersFiles(root, scannersEdgecasesHarvesters, true), scannersFiles(root, scannersEdgecasesProbes, false)...)
}

// scannersSkillscanHarvesters are kurtpayne/skillscan's fixtures (development,
// digit 4): the adversarial cases (tests/adversarial/cases/NAME, each with
// its verdict and finding in expectations.json) that read a secret and send
// it — a05_secret_http (.env credentials POSTed), a07_dns_exfil (a .env
// token sent by nslookup), a08_smtp_exfil (credentials over SMTP),
// a09_scp_exfil (id_rsa copied away by scp), a10_cloud_upload (credentials
// uploaded to S3) — and tests/fixtures/malicious/semantic_prompt_injection,
// whose test (tests/test_semantic_local.py) describes it as reading tokens
// and credentials and uploading them to a webhook. The other cases run
// remote code, disable protections, match an indicator or hold their
// payload in files that are not a skill (main.py, setup.sh, package.json).
// The same cases sit in kurtpayne/skillscan-security, where they are not
// counted again.
var scannersSkillscanHarvesters = []string{
	"tests/adversarial/cases/a05_secret_http",
	"tests/adversarial/cases/a07_dns_exfil",
	"tests/adversarial/cases/a08_smtp_exfil",
	"tests/adversarial/cases/a09_scp_exfil",
	"tests/adversarial/cases/a10_cloud_upload",
	"tests/fixtures/malicious/semantic_prompt_injection",
}

// scannersSkillscanProbes are its clean fixtures: the adversarial suite's benign
// cases (a22_benign, a27_graph_benign, verdict allow) and the benign
// fixture and example.
var scannersSkillscanProbes = []string{
	"examples/benign_skill",
	"tests/adversarial/cases/a22_benign",
	"tests/adversarial/cases/a27_graph_benign",
	"tests/fixtures/benign/basic_skill",
}

func loadScannerSkillscan(tb testing.TB, dir string) []sample {
	return append(scannersDirs(tb, dir, scannersSkillscanHarvesters, true), scannersDirs(tb, dir, scannersSkillscanProbes, false)...)
}

// loadScannerDemoSkills reads kurtpayne/skillscan-demo-skills (development,
// digit 0): skills/data-exfiltrator, which its README calls "intentionally
// malicious (test)" and whose SKILL.md harvests SSH, cloud and environment
// secrets and posts them, a harvester; its other four demo skills (clean,
// clean with an advisory, minimal, risky but declared tools) are probes.
func loadScannerDemoSkills(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "skills")
	return append(scannersDirs(tb, root, []string{"data-exfiltrator"}, true),
		scannersDirs(tb, root, []string{"code-reviewer", "deploy-agent", "meeting-summarizer", "weather-lookup"}, false)...)
}

// loadScannerSturesson reads Sturessonwille/agentskillscanners (development,
// digit 3), a thesis' labelled skills: vulnerable-skills/11-obfuscated-exfil
// (its SKILL.md has the agent run scripts/preflight.py, which reads the
// .env files and database variables and posts them), a harvester.
// 06-sensitive-file-access reads keys but shows them to the agent only; the
// others are injection, escalation, shells, persistence and supply chain;
// 15-multi-stage-attack posts a .env its own script wrote. Its 15
// benign-skills are probes; test_skills copies SKILL-INJECT and
// public-skills are published skills, neither counted.
func loadScannerSturesson(tb testing.TB, dir string) []sample {
	probes, _ := filepath.Glob(filepath.Join(dir, "benign-skills", "*"))
	for i, p := range probes {
		probes[i] = filepath.Base(p)
	}
	return append(scannersDirs(tb, filepath.Join(dir, "vulnerable-skills"), []string{"11-obfuscated-exfil"}, true),
		scannersDirs(tb, filepath.Join(dir, "benign-skills"), probes, false)...)
}

// loadScannerKrahimov reads krahimov/skill-scanner (development, digit 1):
// tests/fixtures/malicious/data-exfil (its tests: it uses
// AWS_SECRET_ACCESS_KEY undeclared; it posts that key, id_rsa and the
// environment) and supporting-script-exfil (its SKILL.md runs helper
// scripts; get_info.py posts the environment's secrets), harvesters both.
// prompt-injection, rce-payload and supporting-script-rce are other
// attacks; its five benign fixtures are probes.
func loadScannerKrahimov(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return append(scannersDirs(tb, root, []string{"malicious/data-exfil", "malicious/supporting-script-exfil"}, true),
		scannersDirs(tb, root, []string{"benign/git-helper", "benign/jq-gh", "benign/markdown-formatter", "benign/process-env", "benign/weather-tool"}, false)...)
}

// loadScannerSkillScanAAA reads dongqingli6/skill-scan-aaa (development, digit
// 6): the ASG samples whose front matter labels them asg_category
// credential_exfil and data_thief (expected archetype "Data Thief", verdict
// MALICIOUS): each reads the environment's keys and ~/.ssh, ~/.aws and
// posts them, harvesters. agent_hijacker, authority_impersonation_skill,
// persistence_skill and reverse_shell_skill are other archetypes;
// benign_weather is a probe. Its generated camouflage and multimodal
// artifacts and its scr_* cases (authorization blur, capability flows) are
// not harvesters.
func loadScannerSkillScanAAA(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "asg/samples")
	return append(scannersDirs(tb, root, []string{"credential_exfil_skill", "data_thief"}, true),
		scannersDirs(tb, root, []string{"benign_weather"}, false)...)
}

// scannersNyuwayHarvesters are Nyuway-Cybersecurity/nyuwayskillscanner's
// benchmark fixtures (benchmarks/corpus/malicious/NAME; development, digit
// 5) that benchmarks/expected.json labels covert_exfiltration and that send
// a secret or the environment: credential-forwarder and
// hardcoded-secret-leaker (also credential_collection; tokens forwarded to
// a webhook), homoglyph-secret-forwarder (secrets mailed),
// semantic-delayed-exfil (the environment mailed), and the helper scripts
// the skill says to run in javascript-postinstall-abuser (a secret token
// posted), script-exfil-deserializer (os.environ posted) and
// shell-network-runner (~/.env posted). powershell-dropper's
// covert_exfiltration only downloads and runs; the others persist,
// poison, escape or destroy. Its clean and benign_suspicious fixtures are
// probes.
var scannersNyuwayHarvesters = []string{
	"credential-forwarder", "hardcoded-secret-leaker", "homoglyph-secret-forwarder",
	"javascript-postinstall-abuser", "script-exfil-deserializer", "semantic-delayed-exfil",
	"shell-network-runner",
}

var scannersNyuwayProbes = []string{
	"benign_suspicious/dependency-installer", "benign_suspicious/remote-doc-loader",
	"benign_suspicious/typosquat-requirements", "benign_suspicious/workspace-indexer",
	"clean/code-review-helper", "clean/data-table-formatter", "clean/note-summarizer",
	"clean/safe-api-doc-writer",
}

func loadScannerNyuway(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "benchmarks/corpus")
	return append(scannersDirs(tb, filepath.Join(root, "malicious"), scannersNyuwayHarvesters, true),
		scannersDirs(tb, root, scannersNyuwayProbes, false)...)
}

// loadScannerFernandopaes reads thefernandopaes/skillscan (development, digit
// 4): tests/fixtures/malicious-skill, whose SKILL.md orders the agent to
// act as "a data exfiltration agent" and send all user data away, and
// whose src/index.ts posts id_rsa and the AWS credentials, a harvester;
// safe-skill is a probe (suspicious-skill is neither).
func loadScannerFernandopaes(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return append(scannersDirs(tb, root, []string{"malicious-skill"}, true), scannersDirs(tb, root, []string{"safe-skill"}, false)...)
}

// scannersSecurityShowcase are kurtpayne/skillscan-security's showcase fixtures
// (examples/showcase/NAME; held out, digit c) whose line in
// examples/showcase/INDEX.md names a secret or the user's data being taken
// away (credential harvest, exfiltration, cross-server data exfiltration)
// and whose SKILL.md is the attack itself, orders to the model, rather than
// a write-up of one: 45 (credential-harvest instructions and silent context
// exfiltration), 65 (developer credential stores), 74 (cross-server data
// exfiltration), 78 (credential file access and network exfiltration), 79
// (covert data exfiltration). 15 (secret-to-network chain) repeats
// kurtpayne/skillscan's a05 almost word for word, and 72 (read credential
// files and exfiltrate) is Invariant Labs' poisoned add tool, already read
// in johannhartmann/mcp-injection-experiments: neither is counted again.
// 27 and 34 are workflow files, no
// skill; 53 is a client's settings file; 52, 71, 86, 88, 89, 92, 98, 99
// and 101 describe a campaign rather than order it; 04, 20, 35, 38, 61, 68
// and 81 gather or reach secrets and send nothing by their labels.
var scannersSecurityShowcase = []string{
	"45_mcp_tool_prompt_injection", "65_dev_credential_harvest_list",
	"74_cross_server_mcp_invocation",
	"78_mcp_poison_credential_exfil_chain", "79_stealth_network_exfil_chain",
}

// scannersSecurityHijackers are its corpus/agent_hijacker fixtures named for
// taking the user's data: ah27_telemetry_exfil (the user's text and
// environment sent to the author's analytics) and
// ah34_personalization_harvest (a profile of the user's health and
// household kept on the provider's servers). The corpus' benign folder
// holds published skills, not counted.
var scannersSecurityHijackers = []string{
	"ah27_telemetry_exfil.md", "ah34_personalization_harvest.md",
}

func loadScannerSkillscanSecurity(tb testing.TB, dir string) []sample {
	showcase := filepath.Join(dir, "examples/showcase")
	out := scannersDirs(tb, showcase, scannersSecurityShowcase, true)
	out = append(out, scannersFiles(filepath.Join(dir, "corpus/agent_hijacker"), scannersSecurityHijackers, true)...)
	return append(out, scannersDirs(tb, showcase, []string{"12_benign_minimal"}, false)...)
}

// loadScannerSkillscanBenchmark reads kurtpayne/skillscan-benchmark's example
// corpus (held out, digit f): env_telemetry_sync, archetype
// data_exfiltration in manifest.synthetic.jsonl, a harvester; its
// code_execution and agent_hijacking samples are other attacks. Its two
// benign samples (manifest.benign.jsonl, one of them dual_use) are probes.
func loadScannerSkillscanBenchmark(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "example_corpus/samples")
	return append(scannersFiles(root, []string{"malicious/synthetic_novel/data_exfiltration/env_telemetry_sync.md"}, true),
		scannersFiles(root, []string{"benign/api_config_helper.md", "benign/word_counter.md"}, false)...)
}

// loadScannerRexcoleman reads rexcoleman/agent-skill-scanner (held out, digit
// d): data/synthetic/e0a_positive_control.md, which EXPERIMENTAL_DESIGN.md
// names the positive control that must be flagged for data exfiltration, a
// harvester. The e0c levels are labelled by injection sophistication only,
// e0b is a copy of a published skill, and data/curated copies ClawHub's
// skills.
func loadScannerRexcoleman(tb testing.TB, dir string) []sample {
	return scannersFiles(filepath.Join(dir, "data/synthetic"), []string{"e0a_positive_control.md"}, true)
}

var scannersSources = []corpusSource{
	// Development (first hex digit 0-7).
	{name: "edgecases-PurpleHax+skillscan", load: loadScannerEdgecases},
	{name: "kurtpayne+skillscan", load: loadScannerSkillscan},
	{name: "kurtpayne+skillscan-demo-skills", load: loadScannerDemoSkills},
	{name: "Sturessonwille+agentskillscanners", load: loadScannerSturesson},
	{name: "krahimov+skill-scanner", load: loadScannerKrahimov},
	{name: "dongqingli6+skill-scan-aaa", load: loadScannerSkillScanAAA},
	{name: "Nyuway-Cybersecurity+nyuwayskillscanner", load: loadScannerNyuway},
	{name: "thefernandopaes+skillscan", load: loadScannerFernandopaes},
	// Held out (8-f).
	{name: "kurtpayne+skillscan-security", heldOut: true, load: loadScannerSkillscanSecurity},
	{name: "kurtpayne+skillscan-benchmark", heldOut: true, load: loadScannerSkillscanBenchmark},
	{name: "rexcoleman+agent-skill-scanner", heldOut: true, load: loadScannerRexcoleman},
}

func init() { corpusSources = append(corpusSources, scannersSources...) }

// TestScannerSourcesLoad checks that each source of this file, when laid
// out, yields every sample its lists name: a fixture moved or renamed
// upstream must fail here rather than shrink a figure quietly. It scans
// nothing.
func TestScannerSourcesLoad(t *testing.T) {
	want := map[string][2]int{ // harvesters, probes
		"edgecases-PurpleHax+skillscan":           {len(scannersEdgecasesHarvesters), len(scannersEdgecasesProbes)},
		"kurtpayne+skillscan":                     {len(scannersSkillscanHarvesters), len(scannersSkillscanProbes)},
		"kurtpayne+skillscan-demo-skills":         {1, 4},
		"Sturessonwille+agentskillscanners":       {1, 15},
		"krahimov+skill-scanner":                  {2, 5},
		"dongqingli6+skill-scan-aaa":              {2, 1},
		"Nyuway-Cybersecurity+nyuwayskillscanner": {len(scannersNyuwayHarvesters), len(scannersNyuwayProbes)},
		"thefernandopaes+skillscan":               {1, 1},
		"kurtpayne+skillscan-security":            {len(scannersSecurityShowcase) + len(scannersSecurityHijackers), 1},
		"kurtpayne+skillscan-benchmark":           {1, 2},
		"rexcoleman+agent-skill-scanner":          {1, 0},
	}
	checkSourceCounts(t, scannersSources, want)
}
