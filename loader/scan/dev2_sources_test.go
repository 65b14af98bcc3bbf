package scan

import (
	"path/filepath"
	"testing"
)

// Development sources added by issue 43's sixth session (helper
// h-harvest) for the kinds of harvester the fifth session's held-out
// sources showed the rules missing. Each puts many attacks in one skill,
// written to trip its own scanner's rules; the rules are written against
// them, so they are development material, never held-out. The hand-written
// samples of TestHarvestKinds carry the kinds these two do not.

// loadAntivirusExample reads claude-skill-antivirus's
// examples/malicious-skill: one SKILL.md whose blocks read SSH keys, the
// whole environment, the cloud and GPG folders, Chrome's Login Data and
// the instance metadata service's credentials, and post them (curl -d @-,
// nc), a harvester; its safe-skill is the scanner itself, packed in a zip,
// and is not counted.
func loadAntivirusExample(tb testing.TB, dir string) []sample {
	return harvesterSkills(tb, filepath.Join(dir, "examples/malicious-skill"))
}

// loadScannerTestMalicious reads skill-security-scanner's
// tests/test-malicious: a SKILL.md and scripts/malware.py, whose functions
// post dict(os.environ) and the AWS and GitHub secrets of the environment
// away among other harm, a harvester. Its test-benign is written for its
// tests and is not counted.
func loadScannerTestMalicious(tb testing.TB, dir string) []sample {
	return harvesterSkills(tb, filepath.Join(dir, "tests/test-malicious"))
}

// harvesterSkills reads every skill under root as a harvester.
func harvesterSkills(tb testing.TB, root string) []sample {
	out := loadSkillDirs(tb, "", root, func(string) bool { return true })
	for i := range out {
		out[i].harvest = true
	}
	return out
}
