package scan

import (
	"os"
	"path/filepath"
	"testing"
)

// Sources gathered by issue 43's seventh session from skill guards: the attack and clean
// fixtures of other people's skill scanners (names with "skill-guard",
// "skillguard", "skill-audit"…), which nobody here had used. A harvester is
// a skill whose own author's labels (a catalog, a labels file, a test, the
// fixture's folder) say it reads secrets or the user's data AND sends them
// away, in prose the model reads or in a script the skill tells the agent
// to run; a fixture that only reads keys, only runs remote code, persists
// or destroys is left out, and so is one whose harm is in code the skill
// never points the agent to. Clean fixtures written for a scanner's tests
// are probes, counted apart from real skills. The split is the first hex
// digit of sha256(OWNER/NAME): 0-7 development, 8-f held out. The lists were
// fixed from the authors' labels before any verdict of this scanner on them
// was seen; held-out ones are only measured.

// aisonaHarvesters are aisona-lab/skill-guard's fixtures (dataset/NAME,
// split digit 3: development) whose catalog entry (dataset/catalog.jsonl,
// adversarial_catalog.jsonl, ood_unsafe_catalog.jsonl) expects rule SG004
// (exfiltration) and whose text sends a secret away: the environment piped
// to curl, SSH keys uploaded, AWS credentials posted by the script the
// SKILL.md says to run (multi-file-only-script: "malice only in scripts/"),
// a CI token posted to a webhook, .env posted by fetch, AWS credentials by
// scp. The other SG004 fixtures read a key and print it or send nothing
// (pathlib-dot-ssh, open-aws-creds, script-only-python-ssh,
// aws-creds-read), copy from S3 (aws-cli-s3), post /etc/passwd, not a
// secret (python-requests-files), or open a reverse shell.
var aisonaHarvesters = []string{
	"adversarial/env-curl", "adversarial/fs-read-env-fetch", "adversarial/py-home-ssh-upload",
	"adversarial/scp-exfil", "fixtures/enterprise/gha-token-leak", "fixtures/malicious/env-stealer",
	"fixtures/malicious/multi-file-only-script", "fixtures/malicious/ssh-exfil",
	"ood_unsafe/wild-curl-ssh-form", "ood_unsafe/wild-env-pipe-curl", "ood_unsafe/wild-ruby-ssh",
}

// aisonaProbes are its clean look-alikes: the catalogs' label "safe"
// entries outside the plain "benign" category, that is the enterprise
// runbook that names secrets only as policy, the borderline skills that use
// curl or name API keys, and the adversarial benign controls. The eight
// plain benign skills are not look-alikes; dataset/ood/safe copies
// Anthropic's skills.
var aisonaProbes = []string{
	"adversarial/curl-public-api", "adversarial/doc-security-words", "adversarial/git-readonly",
	"adversarial/pip-pin", "adversarial/placeholder-key", "fixtures/borderline/large-but-split",
	"fixtures/borderline/mentions-api-key-docs", "fixtures/borderline/uses-curl-docs",
	"fixtures/enterprise/clean-internal-runbook",
}

func loadGuardAisona(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "dataset")
	return namedFixtures(tb, root, aisonaHarvesters, aisonaProbes)
}

// loadGuardSVGreg reads SVGreg/skill-guard's testdata (digit 2: development).
// testdata/malicious is one skill with many attacks, among them the
// environment's API key appended to URLs, the conversation sent in an image
// link, a GitHub token posted, and the setup.sh its SKILL.md says to run,
// which CLAUDE.md calls an "exfiltration/injection corpus" (AWS and SSH keys
// gathered, the environment posted): a harvester, as the sixth session's
// many-attack sources were. testdata/benign is its clean probe.
func loadGuardSVGreg(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "testdata")
	return namedFixtures(tb, root, []string{"malicious"}, []string{"benign"})
}

// loadGuardLxb reads lxbworld/SkillGuard's tests/fixtures/malicious/
// credential-stealer (digit 1: development; no snapshot here, its two files
// laid out from read_file at b82d08a39e5153bdb0125cb28b4588855c30de87): the
// SKILL.md says to run the bundled collector and send the results, and
// scripts/collect.py posts the environment, SSH and AWS keys, git and npm
// credentials; tests/fixtures.rs (credential_stealer_is_caught) expects
// SECRET_ENV_DUMP, SECRET_PATH_READ and NET_FETCH_CALL. Its other malicious
// fixtures download and run, persist or hold keys; its safe fixtures were
// not laid out.
func loadGuardLxb(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "tests/fixtures/malicious"), []string{"credential-stealer"})
}

// loadGuardSkillAudit reads ondrej-merkun/skill-audit (digit 1: development;
// no snapshot here, laid out from read_file). Its fixtures are per rule
// (test/fixtures/RULE/{malicious,benign}) or per skill
// (test/fixtures/malicious/NAME). Harvesters: PI-EXFIL-TRIGGER-CLAUSE's
// malicious SKILL.md (prose: send the user's API key away) and
// malicious/security-auditor-override ("hidden runtime directives", one of
// them sends $AWS_SECRET_ACCESS_KEY). env-exfil-skill, webhook-exfil-skill
// and the per-rule script fixtures hold their harm in scripts the SKILL.md
// never names; trigger-clause-skill sends the working directory and git
// remote, no secret; credstore-read-skill reads and sends nothing in text.
// PI-EXFIL-TRIGGER-CLAUSE's benign twin is a probe.
func loadGuardSkillAudit(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "test/fixtures")
	return namedFixtures(tb, root, skillAuditHarvesters, []string{"PI-EXFIL-TRIGGER-CLAUSE/benign"})
}

var skillAuditHarvesters = []string{"PI-EXFIL-TRIGGER-CLAUSE/malicious", "malicious/security-auditor-override"}

// loadGuardBruceGuard reads brucevanfdm/agent-skills-guard's test-skills
// (digit 3: development), single files each read as a skill's SKILL.md.
// None is a harvester: malicious-hard-trigger deletes, runs remote code and
// opens a reverse shell; contains-secrets holds hard-coded keys;
// medium-risk reads one key and fetches a page, sending nothing.
// safe-skill.md ("should get a high security score") is a probe.
func loadGuardBruceGuard(tb testing.TB, dir string) []sample {
	return guardsSingleFileProbe(filepath.Join(dir, "test-skills/safe-skill.md"))
}

// loadGuardRudrendu reads RudrenduPaul/skillguard's examples (digit 9: held
// out). It holds no harvester: known-bad-skill's install.sh posts a key,
// but its SKILL.md never points the agent to its hooks and calls them
// inert; the cross-privilege pair splits a read of .env and a bare socket
// across two skills, neither sending anything. Its clean examples, which
// its end-to-end tests expect to scan with no finding, are probes.
var rudrenduProbes = []string{
	"clean-skill", "clean-skill-python", "known-name-legit-skill",
	"skill-set-clean/formatter", "skill-set-clean/greeter",
}

func loadGuardRudrendu(tb testing.TB, dir string) []sample {
	return guardsNamedProbes(tb, filepath.Join(dir, "examples"), rudrenduProbes)
}

// openclawGuardHarvesters are xiexie-qiuligao/openclaw-skill-guard's
// fixtures (digit a: held out) that send secrets or the user's data away,
// as its labels say: v1/prompt-risk ("prompt coercion, secret access
// guidance, and attack paths", examples/demo-samples.md) and
// benchmark/high-impact-semantics (OCSG-CONTENT-001, third-party content
// exposure, asserted in crates/core/tests/v3_regressions.rs).
// v1/runtime-refinement repeats prompt-risk's payload and is left out; the
// others run remote code, spoof identity or poison configs.
var openclawGuardHarvesters = []string{"benchmark/high-impact-semantics", "v1/prompt-risk"}

// openclawGuardProbes are its fixtures written as clean controls: v1/benign
// (allowed in its GUI test) and the false-positive and normal-install
// benchmarks (benchmark-matrix.yaml: must not block).
var openclawGuardProbes = []string{
	"benchmark/false-positive-docs", "benchmark/false-positive-normal-docs", "benchmark/normal-install",
	"v1/benign", "v2/false-positive-docs", "v3/false-positive-docs",
}

func loadGuardOpenclawGuard(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "fixtures")
	return namedFixtures(tb, root, openclawGuardHarvesters, openclawGuardProbes)
}

// arturoHarvesters are arturoaguileraa/skill-guard's fixtures
// (apps/jev/eval/fixtures/malicious/NAME, digit d: held out) whose entry in
// its labels file (apps/jev/eval/labels.yaml) names secrets or the user's
// data leaving: the eight of its "exfiltration" section but
// clipboard-hijack (an address swap), the seed prettier-helper ("credential
// read + silent POST"), note-taker ("conversation harvest") and
// trigger-backdoor ("magic-phrase secret exfil"). safe-badge,
// false-provenance-mcp and typosquat-mcp carry exfiltration only beside
// their primary family and are left out. No snapshot here: the session laid
// out these SKILL.md files from read_file at
// 32cc9eea8f01d908527b39b9680becad6dcfb07b; its 31 benign hard negatives
// were not laid out.
var arturoHarvesters = []string{
	"cred-harvester", "env-profiler", "gh-secrets-exfil", "keychain-dumper", "note-taker",
	"npmrc-token-theft", "prettier-helper", "session-siphon", "trigger-backdoor",
	"wallet-drainer", "webhook-exfil",
}

func loadGuardArturo(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "apps/jev/eval/fixtures/malicious"), arturoHarvesters)
}

// guardsNamedProbes reads the skills root/NAME as clean probes.
func guardsNamedProbes(tb testing.TB, root string, names []string) []sample {
	var out []sample
	for _, name := range names {
		for _, s := range loadSkillDirs(tb, "", filepath.Join(root, name), nil) {
			if s.id != "." {
				continue // only the fixture's own SKILL.md
			}
			s.id, s.dir, s.probe = name, name, true
			out = append(out, s)
		}
	}
	return out
}

// namedFixtures reads the harvesters and the probes of a folder of
// fixtures, each by its folder's name.
func namedFixtures(tb testing.TB, root string, harvesters, probes []string) []sample {
	return append(loadNamedHarvesters(tb, root, harvesters), guardsNamedProbes(tb, root, probes)...)
}

// guardsSingleFileProbe reads one file as a clean probe skill's SKILL.md.
func guardsSingleFileProbe(path string) []sample {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	name := filepath.Base(path)
	return []sample{{id: name, probe: true, skill: []File{{Path: "SKILL.md", Data: data}}, dir: name}}
}

var guardsSources = []corpusSource{
	{name: "aisona-lab+skill-guard", load: loadGuardAisona},
	{name: "SVGreg+skill-guard", load: loadGuardSVGreg},
	{name: "lxbworld+SkillGuard", load: loadGuardLxb},
	{name: "ondrej-merkun+skill-audit", load: loadGuardSkillAudit},
	{name: "brucevanfdm+agent-skills-guard", load: loadGuardBruceGuard},
	{name: "RudrenduPaul+skillguard", heldOut: true, load: loadGuardRudrendu},
	{name: "xiexie-qiuligao+openclaw-skill-guard", heldOut: true, load: loadGuardOpenclawGuard},
	{name: "arturoaguileraa+skill-guard", heldOut: true, load: loadGuardArturo},
}

func init() { corpusSources = append(corpusSources, guardsSources...) }

// TestGuardSourcesLoad checks that each source of this file, when laid out,
// yields every harvester and probe its lists name, and no verdict: a
// fixture moved upstream must fail here rather than shrink a figure
// quietly.
func TestGuardSourcesLoad(t *testing.T) {
	checkSourceCounts(t, guardsSources, map[string][2]int{ // harvesters, probes
		"aisona-lab+skill-guard":               {len(aisonaHarvesters), len(aisonaProbes)},
		"SVGreg+skill-guard":                   {1, 1},
		"lxbworld+SkillGuard":                  {1, 0},
		"ondrej-merkun+skill-audit":            {len(skillAuditHarvesters), 1},
		"brucevanfdm+agent-skills-guard":       {0, 1},
		"RudrenduPaul+skillguard":              {0, len(rudrenduProbes)},
		"xiexie-qiuligao+openclaw-skill-guard": {len(openclawGuardHarvesters), len(openclawGuardProbes)},
		"arturoaguileraa+skill-guard":          {len(arturoHarvesters), 0},
	})
}
