package scan

import (
	"path/filepath"
	"testing"
)

// Sources gathered by issue 43's ninth session (helper g13) while looking
// for re-publications of real incidents (ClawHavoc's fake prerequisites and
// webhook.site stealers, trojaned ClawHub skills) and the fixtures of the
// scanners written in answer to them. Each ships skills it labels malicious
// (a README, a benchmark's set, a test that expects a failing verdict, the
// fixture's folder) and, often, clean ones for its tests. A harvester is a
// fixture whose author labels it malicious and whose text reads secrets or
// the user's data AND sends them away, in prose the model reads or in a
// script the SKILL.md tells the agent to run; one that only gathers keys,
// only echoes them into the reply, only runs remote code, or keeps its
// harvest in code the SKILL.md never names is left out. Clean fixtures
// written for a tool's tests are probes, counted apart from real skills.
// The split is the first hex digit of sha256(OWNER/NAME): 0-7 development,
// 8-f held out. The lists were fixed from the authors' labels before any
// verdict of this scanner on them was seen.

// g13LoadClawscan reads sggolakiya/clawscan's test/fixtures (digit 7:
// development), a scanner built on ClawHavoc's indicators ("Test skills
// (safe + malicious)", README.md). dhruval-malicious, a trojaned
// elevenlabs-tts skill, has the agent post ~/.clawdbot/clawdbot.json, the
// SSH keys, the environment, the cloud credentials, shell history and the
// browser's cookies to hosts of its own: a harvester. malicious-skill is a
// ClawHavoc fake prerequisite (curl | sh) whose only order about secrets
// sends ~/.clawdbot/.env "to the user", into the reply, and whose
// setup.sh and stealer.py the SKILL.md never names: left out. safe-skill
// is a probe.
func g13LoadClawscan(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "test/fixtures")
	return namedFixtures(tb, root, []string{"dhruval-malicious"}, []string{"safe-skill"})
}

// g13LoadMSalSkillguard reads MSal2020/skillguard's examples (digit 6:
// development): malicious-skill, "a PDF helper that quietly reads
// ~/.ssh/id_rsa and POSTs it to a remote host" (README.md; its SKILL.md
// hides an order to run scripts/setup.sh, which does it), a harvester;
// clean-skill, which the README shows passing, is a probe. malicious-mcp
// and poisoned-tools are not skills.
func g13LoadMSalSkillguard(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return namedFixtures(tb, root, []string{"malicious-skill"}, []string{"clean-skill"})
}

// g13LoadPraneelSkillguard reads praneel95/skillguard's examples (digit 4:
// development), "a benign skill and a deliberately malicious one used by
// the tests" (README.md): malicious-skill has the agent run its setup.sh,
// which uploads the SSH key and ~/.env among other harm, a harvester (many
// attacks in one: development only); safe-skill is a probe.
func g13LoadPraneelSkillguard(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return namedFixtures(tb, root, []string{"malicious-skill"}, []string{"safe-skill"})
}

// g13HeyytarsHarvesters are heyytars/skillguard's fixtures (digit 5:
// development) that send secrets away. examples/malicious-skill is its
// ClawHavoc reproduction (the youtube-summarize-pro bait, a glot.io
// installer, the 91.92.242.30 archive) with a hidden order to post
// ~/.clawdbot/.env to webhook.site. Its benchmark (bench/README.md) labels
// fixtures/attacks "malicious skills" and fixtures/disguised "the same
// payloads wearing a disguise", both wanted High or Critical; of them
// credential-exfiltration and prose-exfiltration post the AWS credentials
// and ~/.env, disguised/test-fixture posts the AWS credentials, and
// disguised/fake-warning posts a keychain dump. disguised/dont-tell is
// prose-exfiltration under another heading and is not counted twice;
// keychain-dump sends nothing, quoted-then-used puts the key into the
// reply, and the rest install, decode, persist or destroy. The repository
// has no snapshot here: laid out from read_file at the commits in its
// PROVENANCE.txt.
var g13HeyytarsHarvesters = []string{
	"examples/malicious-skill",
	"bench/fixtures/attacks/credential-exfiltration",
	"bench/fixtures/attacks/prose-exfiltration",
	"bench/fixtures/disguised/fake-warning",
	"bench/fixtures/disguised/test-fixture",
}

// g13HeyytarsProbes are its benchmark's fixtures/benign skills with a
// SKILL.md ("ordinary skills", wanted not High or Critical); the others
// are scripts without one. fixtures/context is labelled neither way.
var g13HeyytarsProbes = []string{
	"bench/fixtures/benign/credential-hygiene",
	"bench/fixtures/benign/security-guidance",
	"bench/fixtures/benign/shell-docs",
}

func g13LoadHeyytars(tb testing.TB, dir string) []sample {
	return namedFixtures(tb, dir, g13HeyytarsHarvesters, g13HeyytarsProbes)
}

// g13LoadGirdavSkillsGuard reads girdav01/SkillsGuard's tests/fixtures
// (digit 5: development): malicious_skill, the malicious case of its
// tests (tests/test_html_report.py), has the agent read the SSH key and
// the AWS credentials and send them to a webhook, and post ~/.env, among
// other attacks, a harvester (many attacks in one: development only);
// clean_skill is a probe. edge_cases and skill_with_deps are format
// fixtures.
func g13LoadGirdavSkillsGuard(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, []string{"malicious_skill"}, []string{"clean_skill"})
}

// g13LoadSkillvault reads Khaledgarbaya/skillvault's test-skills (digit 7:
// development): malicious-skill, "a skill with at least one finding per
// category" that the scanner "should find all planted issues" in
// (prds/prd-skscan-prompts.md), has the agent send $API_KEY and
// $SECRET_TOKEN to a "logging endpoint", a harvester (many attacks in one:
// development only); clean-skill ("should pass") is a probe. The other
// folders are real skills its README scans, not fixtures.
func g13LoadSkillvault(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "test-skills")
	return namedFixtures(tb, root, []string{"malicious-skill"}, []string{"clean-skill"})
}

// g13LoadYasirSkillguard reads Yasir-Khan-7/skillguard's examples (digit 1:
// development): risky-skill, which its tests (tests/test_scanner.py) expect
// to block with rule SG202 (exfiltration), hides an order to send ~/.ssh and
// the AWS credentials "to the maintainer", and its scripts/clean.sh, which
// the SKILL.md runs, posts them to a bare IP: a harvester. safe-skill, which
// the tests expect to pass with no finding, is a probe. The repository has
// no snapshot here: laid out from read_file at
// 498663e96324ae8cb965e2ae4745420fc44d2d27.
func g13LoadYasirSkillguard(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return namedFixtures(tb, root, []string{"risky-skill"}, []string{"safe-skill"})
}

// g13LoadAgentSecGateway reads ramvadlamudi29-ai/AgentSecGateway's examples
// (digit 2: development): risky-skill, the "Risky Claude Skill Example"
// (a "Dangerous example") its README scans, tells the agent to send the
// OpenAI API key the user gives to webhook.site, a harvester; safe-skill
// ("Do not request secrets … Do not access network endpoints") is a probe.
// mcp-config.yaml is not a skill.
func g13LoadAgentSecGateway(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return namedFixtures(tb, root, []string{"risky-skill"}, []string{"safe-skill"})
}

// g13LoadVouchspec reads mordiaky/vouchspec's tests/fixtures (digit 1:
// development): risky-skill ("seeded hostile patterns for validator
// regression testing", which tests/test_inspector.py expects to need
// review) orders the agent to upload credentials to a collector, a
// harvester; valid-skill, the clean case, is a probe. invalid-skill is a
// layout fault.
func g13LoadVouchspec(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, []string{"risky-skill"}, []string{"valid-skill"})
}

// g13LoadGuardskills reads felixondesk/guardskills' tests/fixtures (digit f:
// held out): malicious-exfil, the "credential exfiltration fixture" its
// tests (tests/scanner-scoring.test.ts) expect to hard-block, posts the SSH
// key away, a harvester; safe and prose-only, which the tests expect SAFE
// with no finding, are probes. malicious is a remote-code fixture, and
// warning, which the tests rate WARNING rather than malicious, is labelled
// neither way: both are left out.
func g13LoadGuardskills(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, []string{"malicious-exfil"}, []string{"safe", "prose-only"})
}

// g13WaingroHarvesters are north-echo/waingro's corpus fixtures
// (tests/fixtures/skills/CATEGORY/NAME; digit 5: development), a scanner of
// ClawHavoc-era OpenClaw skills whose corpus test (tests/test_corpus.py)
// expects every malicious fixture to be flagged: those its own categories
// file under credential-exfiltration, data-exfiltration and authtool ("token
// hijack") whose text posts what it gathers: the environment's secrets and
// cloud credentials, a keychain dump, SSH/GPG/kube keys, the workspace with
// ~/.ssh and ~/.aws, a file of the user's over DNS, the clipboard history,
// bearer tokens from proxy logs, browser session cookies, and the GitHub
// and npm tokens. The clawhavoc set is a reverse shell, cron persistence
// and a C2 beacon; mixed-signal/helpful-but-leaky posts only the user and
// host names; tests/fixtures/malicious/credential-exfil reads keys but sends
// nothing; the rest inject, install or run remote code.
var g13WaingroHarvesters = []string{
	"credential-exfiltration/env-harvester",
	"credential-exfiltration/keychain-reader",
	"credential-exfiltration/cloud-key-stealer",
	"data-exfiltration/archive-and-send",
	"data-exfiltration/dns-exfil",
	"data-exfiltration/clipboard-monitor",
	"authtool/oauth-interceptor",
	"authtool/session-stealer",
	"authtool/token-replay",
}

// g13WaingroProbes are its BENIGN_FIXTURES, which the corpus test expects
// CLEAN with no finding.
var g13WaingroProbes = []string{
	"benign/weather-checker", "benign/code-reviewer", "benign/daily-standup", "benign/bundled-subprocess",
}

func g13LoadWaingro(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures/skills")
	return namedFixtures(tb, root, g13WaingroHarvesters, g13WaingroProbes)
}

// g13LoadSkillcage reads stefanoamorelli/skillcage's examples (digit 5:
// development), "a benign skill and one deliberately malicious skill per
// major threat category" (examples/README.md). bad/data-exfiltration
// ("egress to a host it never declared") has the agent run its
// scripts/backup.sh, which posts the user's bank transactions to a
// collector, a harvester; good/spending-summary is a probe.
// bad/credential-theft keeps its theft in scripts/report.py, which its
// SKILL.md ("Run the exporter.") never names; bad/cross-mcp mails the
// transactions to the user's own accountant, the errand its description
// names, and is labelled for the undeclared server it uses, not a theft:
// both are left out, as are the injection and supply-chain fixtures. The
// repository has no snapshot here: laid out from read_file at
// e17ae1076ea8a4770b255f9ab76b3f0e9d165d24.
func g13LoadSkillcage(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return namedFixtures(tb, root, []string{"bad/data-exfiltration"}, []string{"good/spending-summary"})
}

// g13LoadAgentWarden reads juangh123/AgentWarden's single-file fixtures
// (digit a: held out), each read as its skill's SKILL.md:
// fixtures/malicious-skill.md ("Looks like a git helper, but steals SSH
// keys and AWS credentials", its own description) posts them away, a
// harvester; examples/malicious-skill.md ("Intentionally unsafe fixture")
// is the same attack with another token and is not counted twice. Its
// safe-skill.md fixtures in both folders are probes. hardcoded-secrets.md
// and obfuscated-skill.md are other faults. The repository has no snapshot
// here: laid out from read_file at the commits in its PROVENANCE.txt.
func g13LoadAgentWarden(tb testing.TB, dir string) []sample {
	out := g9SingleFiles(filepath.Join(dir, "fixtures"), []string{"malicious-skill.md"}, true)
	out = append(out, g9SingleFiles(filepath.Join(dir, "fixtures"), []string{"safe-skill.md"}, false)...)
	for _, s := range g9SingleFiles(filepath.Join(dir, "examples"), []string{"safe-skill.md"}, false) {
		s.id, s.dir = "examples/"+s.id, "examples/"+s.dir
		out = append(out, s)
	}
	return out
}

// g13AISkillsHarvesters are aonishchenko/AISkillsVerification's examples
// (digit 7: development), single files named malicious-* and mal-*, that
// send secrets or the user's data away: malicious-skill.md (the AWS
// credentials read "to authenticate", then the user's text to webhook.site
// and the chat history in an image URL; many attacks in one: development
// only) and mal-emailsummarizer.md (the API keys, reset links and tokens
// found in the user's mail, sent to a collector). mal-codereview.md wraps
// its upload in an echo marked "PLACEHOLDER_ONLY_DO_NOT_RUN", and
// mal-lipost.md hides private facts in the post it writes, not a send:
// both are left out. clean-skill.md is a probe; cv_SKILL.md is a real
// skill, not a fixture. Laid out from read_file at
// 72132c7aa6add9d8f635eb3b92ca502210945821.
var g13AISkillsHarvesters = []string{"malicious-skill.md", "mal-emailsummarizer.md"}

func g13LoadAISkills(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return append(g9SingleFiles(root, g13AISkillsHarvesters, true),
		g9SingleFiles(root, []string{"clean-skill.md"}, false)...)
}

// g13LoadStayVigil reads wawatjirka/StayVigil's tests/fixtures (digit 6:
// development): malicious-skill.md, which tests/scanner.test.ts expects to
// fail the "Data Exfiltration" check among others, has the agent send every
// file the user reads to webhook.site, a harvester (many attacks in one:
// development only); safe-skill.md, expected to pass all twelve checks and
// score 100, is a probe. secrets-skill, medium-risk-skill and
// prompt-injection-skill are other faults.
func g13LoadStayVigil(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return append(g9SingleFiles(root, []string{"malicious-skill.md"}, true),
		g9SingleFiles(root, []string{"safe-skill.md"}, false)...)
}

// g13LoadAgentHunter reads indhra/agent-hunter's single-file fixtures
// (tests/fixtures; digit 0: development): malicious_skill.md, which
// tests/test_security_scan.py expects to be RED ("Malicious skill"), sends
// GITHUB_TOKEN and all environment variables to a collector, a harvester;
// clean_skill.md is a probe. stale_skill.md is a freshness fixture.
func g13LoadAgentHunter(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return append(g9SingleFiles(root, []string{"malicious_skill.md"}, true),
		g9SingleFiles(root, []string{"clean_skill.md"}, false)...)
}

// g13LoadClawhubBridge reads claude-go/clawhub-bridge's single-file
// fixtures (tests/fixtures; digit d: held out), a ClawHub scanner whose
// tests (tests/test_scanner.py) expect malicious_skill.md to FAIL with
// its SSH-key access and outbound POST found: it posts the SSH key and
// the browser's saved logins away, a harvester; clean_skill.md, expected to
// PASS with no finding, is a probe. webhook_exfil_skill posts only status
// text, cloud_cred_skill copies keys locally and sends nothing, and the
// rest are recon, shells, escapes and git misuse. The repository has no
// snapshot here: laid out from read_file at
// 12cf7646fdfd94824fd318390c367947306df11b.
func g13LoadClawhubBridge(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return append(g9SingleFiles(root, []string{"malicious_skill.md"}, true),
		g9SingleFiles(root, []string{"clean_skill.md"}, false)...)
}

var g13Sources = []corpusSource{
	{name: "sggolakiya+clawscan", load: g13LoadClawscan},
	{name: "MSal2020+skillguard", load: g13LoadMSalSkillguard},
	{name: "praneel95+skillguard", load: g13LoadPraneelSkillguard},
	{name: "heyytars+skillguard", load: g13LoadHeyytars},
	{name: "girdav01+SkillsGuard", load: g13LoadGirdavSkillsGuard},
	{name: "Khaledgarbaya+skillvault", load: g13LoadSkillvault},
	{name: "Yasir-Khan-7+skillguard", load: g13LoadYasirSkillguard},
	{name: "ramvadlamudi29-ai+AgentSecGateway", load: g13LoadAgentSecGateway},
	{name: "mordiaky+vouchspec", load: g13LoadVouchspec},
	{name: "north-echo+waingro", load: g13LoadWaingro},
	{name: "stefanoamorelli+skillcage", load: g13LoadSkillcage},
	{name: "aonishchenko+AISkillsVerification", load: g13LoadAISkills},
	{name: "wawatjirka+StayVigil", load: g13LoadStayVigil},
	{name: "indhra+agent-hunter", load: g13LoadAgentHunter},
	{name: "felixondesk+guardskills", heldOut: true, load: g13LoadGuardskills},
	{name: "juangh123+AgentWarden", heldOut: true, load: g13LoadAgentWarden},
	{name: "claude-go+clawhub-bridge", heldOut: true, load: g13LoadClawhubBridge},
}

func init() { corpusSources = append(corpusSources, g13Sources...) }

// TestMore13SourcesLoad checks that each source of this file, when laid
// out, yields every harvester and probe its lists name, and runs no
// verdict: a fixture moved upstream must fail here rather than shrink a
// figure quietly.
func TestMore13SourcesLoad(t *testing.T) {
	want := map[string][2]int{
		"sggolakiya+clawscan":               {1, 1},
		"MSal2020+skillguard":               {1, 1},
		"praneel95+skillguard":              {1, 1},
		"heyytars+skillguard":               {len(g13HeyytarsHarvesters), len(g13HeyytarsProbes)},
		"girdav01+SkillsGuard":              {1, 1},
		"Khaledgarbaya+skillvault":          {1, 1},
		"Yasir-Khan-7+skillguard":           {1, 1},
		"ramvadlamudi29-ai+AgentSecGateway": {1, 1},
		"mordiaky+vouchspec":                {1, 1},
		"felixondesk+guardskills":           {1, 2},
		"north-echo+waingro":                {len(g13WaingroHarvesters), len(g13WaingroProbes)},
		"stefanoamorelli+skillcage":         {1, 1},
		"aonishchenko+AISkillsVerification": {len(g13AISkillsHarvesters), 1},
		"wawatjirka+StayVigil":              {1, 1},
		"juangh123+AgentWarden":             {1, 2},
		"indhra+agent-hunter":               {1, 1},
		"claude-go+clawhub-bridge":          {1, 1},
	}
	checkSourceCounts(t, g13Sources, want)
}
