package scan

import (
	"regexp"
	"strings"
)

// A fork need not send anything to read the user's data for as long as it
// likes: it has the user's account grant access to an account of its own,
// with one call the skill presents as setup. A calendar shared with a
// "scheduler" service account (acl().insert with "value":
// "focus-planner@gcal-focus-prod.iam.gserviceaccount.com"), a project's
// role bound to an outside member, a bucket's policy naming an outside AWS
// account, a Snowflake share given to another account. The account a user
// grants is the user's: a variable, a placeholder, an example of the
// service's documentation.

var (
	// grantCallRE is a call that grants access to a principal.
	grantCallRE = mustGate(`(?i)\bacl\(\)\s*\.\s*insert\b|\bpermissions\(\)\s*\.\s*create\b|\badd-iam-policy-binding\b|\bset-iam-policy\b|\bgsutil\s+(?:iam\s+ch|acl\s+ch)\b|\bgcloud\s+storage\s+buckets\s+add-iam-policy-binding\b|\balter\s+share\b|\bcollaborators/|\bput-bucket-policy\b|\bcreate-grant\b|\bcreate-resource-share\b|\bupdate-assume-role-policy\b|\baddCollaborator\b|\bshare\s*\(\s*["'][\w.+-]+@`)
	// principalRE is a principal written out: an e-mail address of a
	// user, a group or a service account, or an AWS account's number.
	principalRE = regexp.MustCompile(`(?i)(?:\b(?:user|group|serviceAccount|domain):)?\b([\w.+-]+@[a-z0-9][\w-]*(?:\.[\w-]+)+)|\barn:aws:iam::(\d{12}):|"AWS"\s*:\s*"(\d{12})"|--principals?\s+(\d{12})\b|\badd\s+accounts?\s*=\s*([a-z][\w]*\.[\w]+|[a-z]{2,}\d{3,})\b`)
	// collaboratorRE is a GitHub collaborator added by name.
	collaboratorRE = regexp.MustCompile(`(?i)\bcollaborators/([a-z0-9](?:[a-z0-9-]{0,38}))\b`)
)

var (
	// roleRE is the role a binding grants.
	roleRE = regexp.MustCompile(`--role[=\s]+["']?(roles/[\w.]+)`)
	// readRoleRE is a role that reads the resource it is granted on: the
	// basic roles, a viewer's, a reader's, an admin's, a subscriber's, an
	// accessor of secrets'. A publisher's or a token creator's writes
	// into it (Nest's devices publish their events to the user's topic).
	readRoleRE = regexp.MustCompile(`(?i)^roles/(?:viewer|editor|owner|browser|[\w.]*(?:viewer|reader|admin|owner|editor|subscriber|accessor|user))$`)
)

// grantWords are words every grant of grantCallRE holds one of.
var grantWords = []string{"acl()", "permissions()", "iam-policy", "gsutil", "alter share", "collaborator", "bucket-policy", "create-grant", "resource-share", "assume-role-policy", "addcollaborator", "share("}

// exampleAccounts are the AWS account numbers AWS's documentation uses.
var exampleAccounts = map[string]bool{"123456789012": true, "111122223333": true, "444455556666": true, "999999999999": true, "000000000000": true, "111111111111": true, "123456789000": true}

// outsideGrants adds, to each file of a skill, a call that grants an
// account written out access to the user's data.
func outsideGrants(r *skillReading, scanned []*findings) {
	for i, raw := range r.texts {
		if !containsAny(r.lowered(i), grantWords) || !grantCallRE.mayMatch(raw) {
			continue
		}
	units:
		for _, u := range r.unitsOf(i) {
			if u.prose || !grantCallRE.MatchString(u.text) {
				continue
			}
			statements := splitStatements(u.text, true)
			held := map[string]string{} // a name set to a principal: the principal
			for _, st := range statements {
				text := u.text[st[0]:st[1]]
				if strings.Contains(text, "@") && !grantCallRE.MatchString(text) {
					if who, _ := grantee(text, nil); who != "" {
						for _, name := range setNames(text) {
							held[name] = who
						}
					}
				}
			}
			for _, st := range statements {
				text := u.text[st[0]:st[1]]
				if commentLine(text) || !grantCallRE.MatchString(text) {
					continue
				}
				if m := roleRE.FindStringSubmatch(text); m != nil && !readRoleRE.MatchString(m[1]) {
					continue // a role to publish to the user's topic reads nothing
				}
				if who, at := grantee(text, held); who != "" {
					scanned[i].add(RuleExfiltrate, SeverityWithhold, u.start+st[0]+at[0], u.start+st[0]+at[1],
						"the user's data shared with "+who+", an account the skill writes out, from now on")
					break units
				}
			}
		}
	}
}

// grantee returns the first principal of a statement that grants access
// and is neither a placeholder, an example nor one of the services' own
// robots, and where it is: written out, or held by a name of held.
func grantee(text string, held map[string]string) (string, [2]int) {
	for _, m := range principalRE.FindAllStringSubmatchIndex(text, 8) {
		for g := 1; g < len(m)/2; g++ {
			if m[2*g] < 0 {
				continue
			}
			who := text[m[2*g]:m[2*g+1]]
			if g == 1 {
				domain := strings.ToLower(who[strings.LastIndexByte(who, '@')+1:])
				if ownHost(domain, nil) || placeholderAccountRE.MatchString(domain) || strings.HasSuffix(domain, ".gserviceaccount.com") && serviceRobot(domain) {
					break
				}
			} else if exampleAccounts[who] {
				break
			}
			return who, [2]int{m[0], m[1]}
		}
	}
	if m := collaboratorRE.FindStringSubmatchIndex(text); m != nil {
		if who := text[m[2]:m[3]]; !placeholderWordRE.MatchString(who) {
			return who, [2]int{m[0], m[1]}
		}
	}
	if len(held) > 0 {
		for _, m := range identRE.FindAllStringIndex(text, -1) {
			if who, ok := held[text[m[0]:m[1]]]; ok {
				return who, [2]int{m[0], m[1]}
			}
		}
	}
	return "", [2]int{}
}

// serviceRobot reports a Google service account of Google's own, which a
// user's setup grants as its documentation says (the Cloud Build robot,
// the Pub/Sub service agent).
func serviceRobot(domain string) bool {
	return strings.HasPrefix(domain, "gcp-sa-") || strings.Contains(domain, "cloudservices") || strings.Contains(domain, "cloudbuild") || strings.HasPrefix(domain, "developer.")
}

// placeholderAccountRE is a domain of an account written for the reader
// to fill in: the user's project (sa@my-project.iam.gserviceaccount.com,
// PROJECT_ID.iam…).
var placeholderAccountRE = regexp.MustCompile(`(?i)(?:^|[.-])(?:my|your|example|sample|demo|project|project-?id|project_id)(?:[.-]|$)`)

// placeholderWordRE is a name written for the reader to fill in.
var placeholderWordRE = regexp.MustCompile(`(?i)^(?:user|username|login|name|owner|collaborator|member|handle|octocat|someone|teammate|your|me)$`)
