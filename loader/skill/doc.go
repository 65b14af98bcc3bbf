// Package skill reads an Agent Skill: a folder holding a SKILL.md, YAML
// frontmatter and Markdown instructions. [Load] reads one folder and
// snapshots its files (the bytes served later are the bytes validated now,
// so nothing outside the folder is ever read through a skill); [Parse]
// validates a SKILL.md by the Agent Skills rules, collecting every problem
// with its file, line and field. A problem of severity
// [problem.SeverityError] refuses the skill; warnings and hints load it and
// tell its author. A SKILL.md in a folder of a skill is a nested skill of
// its own. [Dirs] finds the skill folders under a root.
//
// Putting skills in the catalog, and keeping them there as their folders
// change, is loader.SkillSource's.
package skill
