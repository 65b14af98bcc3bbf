package scan

import (
	"path"
	"path/filepath"
	"testing"
)

// Sources gathered by issue 43's ninth session (helper g10) from skill
// scanners, guards and benchmarks written outside the English-speaking
// ecosystems the earlier rounds searched: Chinese authors' scanners and
// test corpora whose labels (a README table, a test's expectations, a
// fixture's own 【恶意示例】 "malicious example" banner, a generator's
// ground-truth file) are the authors'. A harvester is a fixture whose author
// labels it malicious and whose text reads secrets or the user's data AND
// sends them away, in prose the model reads or in a script the SKILL.md
// tells the agent to run; one that only gathers keys, only runs remote code,
// or names only an exfiltration host is left out. Clean fixtures written for
// a tool's tests are probes, counted apart from real skills. The split is
// the first hex digit of sha256(OWNER/NAME): 0-7 development, 8-f held out.
// The lists were fixed from the authors' labels before any verdict of this
// scanner on them was seen; held-out ones are only measured.

// g10SkillGuardHarvesters are xuxianbang1993/SkillGuard's single-file
// fixtures (digit 3: development) that its README's fixture table labels a
// theft that sends: 03-credential-theft.md ("凭证窃取", credential theft:
// the API key put in a webhook.site URL) and 10-env-exfil.md ("环境变量外传",
// environment variables sent out). Its run-tests.sh expects every fixture
// but 01 to raise an issue. 04-exfil-domains.md ("外传域名 + DNS 外传") lists
// collection hosts and DNS look-ups but names no secret or user data sent;
// 08-hook-injection.md is labelled a hook injection; the others are
// injection, reverse shell, obfuscation and RAG poisoning. The fixtures were
// dropped from the newest tree: laid out from the snapshot at
// 259f77c3032f8d9a4733afb7f211f30804196f04.
var g10SkillGuardHarvesters = []string{"03-credential-theft.md", "10-env-exfil.md"}

// g10SkillGuardProbes is the fixture run-tests.sh expects to raise nothing.
var g10SkillGuardProbes = []string{"01-clean-skill.md"}

func g10LoadSkillGuard(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "test-fixtures")
	return append(g9SingleFiles(root, g10SkillGuardHarvesters, true),
		g9SingleFiles(root, g10SkillGuardProbes, false)...)
}

// g10LoadSkillSecurityScan reads RJiazhen/skill-security-scan's test/fixtures
// (digit 6: development). synthetic-divert-upload ("Synthetic
// malicious-pattern fixture", written for the Coze-style diversion its
// detectors target) is expected by test/test_scan.py to trip
// ForcedUploadDetector (category forced_exfiltration) and
// RemoteWorkflowExfiltrationDetector among others: it has the agent upload
// ./secret.env and a source file to the vendor's cloud, a harvester (many
// attacks in one; development only). clean-docs, expected to raise nothing
// HIGH, is a probe. classic-malware reads an SSH key and names a C2 host but
// sends nothing; prompt-inject is an injection.
func g10LoadSkillSecurityScan(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "test/fixtures")
	return namedFixtures(tb, root, []string{"synthetic-divert-upload"}, []string{"clean-docs"})
}

// g10LoadTrustSkill reads nonabit/TrustSkill's examples (digit 5:
// development). malicious/data-exfiltration-skill, whose description reads
// "【恶意示例】演示数据外泄攻击的 skill" (malicious example: a data
// exfiltration skill stealing AWS credentials, the GitHub token and the SSH
// key), posts them to a collector in its prose and in the
// scripts/exfiltrate.sh it names: a harvester. safe/hello-world-skill
// ("安全示例", a safe example) is a probe. command-injection-skill and
// file-deletion-skill are other attacks; ast_test holds parser cases. No
// licence is stated.
func g10LoadTrustSkill(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return append(loadNamedHarvesters(tb, root, []string{"malicious/data-exfiltration-skill"}),
		guardsNamedProbes(tb, root, []string{"safe/hello-world-skill"})...)
}

// g10DetectorHarvesters are skilltrust/skill-detector's adversarial cases
// (digit 6: development; the module path says velzepooz/skill-detector)
// whose author names them exfiltration in the case's name or its test's
// reason (cmd/skill-detector/adversarial_test.go, atLeast a failing grade):
// sd004-fielddoc-exfil-command (a field-doc bullet that posts
// ~/.credentials to an "exfil" endpoint), sd007-capture-assignment-upload
// ("an upload flag naming a path outside the package is
// exfiltratesLocalData's business": the user's notes database uploaded) and
// sd007-git-fetch-then-exfil (a notes file posted to a collector). The other
// attack cases are reverse shells, downloads, path escapes, encodings and
// hooks; the uncovered and known-gap tables are not labelled attacks.
var g10DetectorHarvesters = []string{
	"sd004-fielddoc-exfil-command",
	"sd007-capture-assignment-upload",
	"sd007-git-fetch-then-exfil",
}

// g10DetectorProbes are control cases the same test expects to grade A on
// the axis their look-alike fails: a credential field documented, a
// prohibition naming a credential path, a threat-model table naming a
// private key, a declared API endpoint.
var g10DetectorProbes = []string{
	"control-declared-endpoint",
	"control-sd004-credentials-fielddoc",
	"control-sd004-negated-guidance",
	"control-sd004-threat-model-table",
}

// g10LoadDetector reads them. No snapshot here: laid out from read_file at
// the commits PROVENANCE.txt in the laid-out folder names.
func g10LoadDetector(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "cmd/skill-detector/testdata/adversarial")
	return namedFixtures(tb, root, g10DetectorHarvesters, g10DetectorProbes)
}

// g10SkillConstructionHarvesters are Zewang0217/skill-construction's
// generated samples (digit f: held out), LLM-written skills for a Chinese
// SoK's scanner evaluation, each with a ground-truth _provenance.json
// (label "malicious", a coordinate source|mechanism|target) and, in the
// generator script that wrote it, "how": the author's account of the
// attack. The rule, fixed from those labels alone, takes target info_theft
// where "how" has the skill's own text read secrets AND send them to the
// collection endpoint: of arm10 and arm10b, the samples whose "how" posts
// or uploads the environment, credential files or service keys (arm10-01
// leaves the harvest to a script fetched at run time, arm10-04 to a cron
// job it installs; arm10b-01, -02 and -04 send query results, response logs
// or "environment context", no named secret); and every arm12 sample with
// mal_target "凭证外传" (credential exfiltration), whose "how" has inline
// code in the SKILL.md read credentials and send them to the endpoint.
// arm11 and arm13 are labelled by the scanner rule they evade, the skill-*
// samples by seed lists, and the wild samples copy MalSkillBench and Trail
// of Bits: left out. The _provenance.json files are the label and are not
// read as part of the skill.
var g10SkillConstructionHarvesters = []string{
	"arm10-02-M2-var-inject-user_input-code_exec-info_theft",
	"arm10-03-M3-env-read-user_input-code_exec-info_theft",
	"arm10-05-M5-runtime-url-user_input-code_exec-info_theft",
	"arm10-06-M6-user-driven-user_input-code_exec-info_theft",
	"arm10b-07-m6-user-driven-full-user_input-code_exec-info_theft",
	"arm10b-09-m3-env-read-deploy-user_input-code_exec-info_theft",
	"arm12-01-b2-market-data-external_content-code_exec-info_theft",
	"arm12-02-b2-weather-feed-external_content-code_exec-info_theft",
	"arm12-05-b2-news-feed-external_content-code_exec-info_theft",
	"arm12-07-b2-ticker-feed-external_content-code_exec-info_theft",
	"arm12-09-b2-stats-feed-external_content-code_exec-info_theft",
}

func g10LoadSkillConstruction(tb testing.TB, dir string) []sample {
	return g10WithoutLabels(loadNamedHarvesters(tb, filepath.Join(dir, "generator/output"), g10SkillConstructionHarvesters))
}

// g10LoadSkillTrust reads qybaihe/SkillTrust's fixtures (digit f: held
// out), a Chinese author's skill auditor. malicious-like-writing-skill is,
// by its README, "intentionally malicious-like for SkillTrust tests": it
// reads token material and sends it to a webhook, a harvester;
// benign-pdf-skill is its clean twin, a probe. overprivileged-research-skill
// is labelled over-reach, its reads and telemetry in a script, and is left
// out. The READMEs are the labels and are not laid out. No snapshot here:
// laid out from read_file at 34fa4b582eba49aa19b6a5330084db9ff4ff9df9.
func g10LoadSkillTrust(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "fixtures")
	return namedFixtures(tb, root, []string{"malicious-like-writing-skill"}, []string{"benign-pdf-skill"})
}

// g10WithoutLabels drops a generator's ground-truth files from each sample:
// the scanner must judge the skill, not read its answer.
func g10WithoutLabels(samples []sample) []sample {
	for i := range samples {
		var kept []File
		for _, f := range samples[i].skill {
			if path.Base(f.Path) != "_provenance.json" {
				kept = append(kept, f)
			}
		}
		samples[i].skill = kept
	}
	return samples
}

var g10Sources = []corpusSource{
	{name: "xuxianbang1993+SkillGuard", load: g10LoadSkillGuard},
	{name: "RJiazhen+skill-security-scan", load: g10LoadSkillSecurityScan},
	{name: "nonabit+TrustSkill", load: g10LoadTrustSkill},
	{name: "skilltrust+skill-detector", load: g10LoadDetector},
	{name: "Zewang0217+skill-construction", heldOut: true, load: g10LoadSkillConstruction},
	{name: "qybaihe+SkillTrust", heldOut: true, load: g10LoadSkillTrust},
}

func init() { corpusSources = append(corpusSources, g10Sources...) }

// TestMore10SourcesLoad checks that each source of this file, when laid out,
// yields every harvester and probe its lists name, and runs no verdict: a
// fixture moved upstream must fail here rather than shrink a figure
// quietly.
func TestMore10SourcesLoad(t *testing.T) {
	checkSourceCounts(t, g10Sources, map[string][2]int{ // harvesters, probes
		"xuxianbang1993+SkillGuard":     {len(g10SkillGuardHarvesters), len(g10SkillGuardProbes)},
		"RJiazhen+skill-security-scan":  {1, 1},
		"nonabit+TrustSkill":            {1, 1},
		"skilltrust+skill-detector":     {len(g10DetectorHarvesters), len(g10DetectorProbes)},
		"Zewang0217+skill-construction": {len(g10SkillConstructionHarvesters), 0},
		"qybaihe+SkillTrust":            {1, 1},
	})
	dir := filepath.Join(corpusRoot(), "Zewang0217+skill-construction")
	for _, s := range g10LoadSkillConstruction(t, dir) {
		for _, f := range s.skill {
			if path.Base(f.Path) == "_provenance.json" {
				t.Errorf("%s: the label file %s is read as part of the skill", s.id, f.Path)
			}
		}
	}
}
