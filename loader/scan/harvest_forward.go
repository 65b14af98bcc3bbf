package scan

import (
	"regexp"
	"strings"
)

// A fork can have a service send the user's data on for as long as the
// account lives, with one call the skill presents as setup: a webhook
// subscription, a destination, a status callback pointed at a host of its
// own (PagerDuty's webhook_subscriptions with "url":
// "https://feed.oncall-assist.example/ingest", Twilio's StatusCallback).
// The address a user hands a service to call back is the user's: a
// setting, a placeholder, a host the skill names as a word.

var (
	// forwardKeyRE is a field that tells a service where to send later,
	// set to an address written out or held by a name.
	forwardKeyRE = regexp.MustCompile(`(?i)["'\[]*(\w*(?:webhook|callback|hook|notif\w*|deliver\w*|forward\w*|destination|receiver|sink|ingest)\w*|url|uri|endpoint|address)["'\]]*\s*[:=]\s*\[?\s*(?:["']?(https?://[^\s"'\]]+)|([A-Za-z_]\w*))`)
	// forwardWordRE is a word of a request that sets up a forward.
	forwardWordRE = regexp.MustCompile(`(?i)webhook|subscription|callback|hooks\b|deliver|destination|forward|notif`)
)

// forwardSetupWords are the words of forwardWordRE, looked for in a lowered
// text before the expression runs.
var forwardSetupWords = []string{"webhook", "subscription", "callback", "hooks", "deliver", "destination", "forward", "notif"}

// standingForwards adds, to each file of a skill, a request that hands a
// service a fixed address of someone else's to send to.
func standingForwards(r *skillReading, scanned []*findings) {
	for i, raw := range r.texts {
		if !strings.Contains(raw, "://") || !containsAny(r.lowered(i), forwardSetupWords) {
			continue
		}
	units:
		for _, u := range r.unitsOf(i) {
			if u.prose || !forwardWordRE.MatchString(u.text) || !sendCallRE.MatchString(u.text) {
				continue
			}
			urls := map[string][]string{} // a name set to an address: its hosts
			for _, st := range statements(u.text) {
				text := u.text[st[0]:st[1]]
				if commentLine(text) {
					continue
				}
				if strings.Contains(text, "://") {
					for _, name := range setNames(text) {
						if hosts := sendHosts(text, nil, nil, true); len(hosts) > 0 {
							urls[name] = addWords(urls[name], hosts)
						}
					}
				}
				if !forwardWordRE.MatchString(text) {
					continue
				}
				var requested []string // the hosts the statement's request goes to
				if sendCallRE.MatchString(text) {
					requested = sendHosts(text, nil, nil, true)
				}
				for _, m := range forwardKeyRE.FindAllStringSubmatch(text, 8) {
					key := strings.ToLower(m[1])
					if (key == "url" || key == "uri" || key == "endpoint" || key == "address") && len(requested) == 0 {
						continue // an address of a request, not one handed on
					}
					var hosts []string
					if m[2] != "" {
						if h := urlHostRE.FindStringSubmatch(m[2]); h != nil {
							hosts = []string{strings.ToLower(h[1])}
						}
					} else {
						hosts = urls[m[3]]
					}
					for _, host := range hosts {
						if ownHost(host, nil) || len(requested) > 0 && registered(host) == registered(requested[0]) {
							continue
						}
						if r.named().namesWord(host) {
							continue
						}
						scanned[i].add(RuleExfiltrate, SeverityWithhold, u.start+st[0], u.start+min(st[1], st[0]+200),
							"a service told to send on to "+host+" from now on, an address the skill does not name")
						break units
					}
				}
			}
		}
	}
}

var (
	// rawAuditSocketRE is a Vault audit device that streams every request
	// and answer unhashed (log_raw=true: the secrets read, the tokens
	// made) to a host over the network.
	rawAuditSocketRE = regexp.MustCompile(`(?i)\bvault\s+audit\s+enable\b[^\n]*?\bsocket\b[^\n]*?\baddress\s*=\s*["']?([a-z0-9][\w-]*(?:\.[\w-]+)+)`)
	rawAuditRE       = regexp.MustCompile(`(?i)\blog_raw\s*=\s*["']?true\b`)
	// httpBackendRE is Terraform's http backend at an address written
	// out: the state, every secret the configuration provisioned, is
	// stored there.
	httpBackendRE = regexp.MustCompile(`(?is)\bbackend\s+"http"\s*\{[^}]{0,400}?\baddress\s*=\s*"https?://([a-z0-9][\w-]*(?:\.[\w-]+)+)`)
	// stateMovedRE moves a state to the backend configured.
	stateMovedRE = regexp.MustCompile(`(?i)\bterraform\s+(?:init\b[^\n]*-migrate-state|state\s+push)\b|\btofu\s+(?:init\b[^\n]*-migrate-state|state\s+push)\b`)
)

// configuredSinks adds, to each file of a skill, a setting that has a
// system send what it holds to a fixed host from then on: Vault's raw
// audit log to a socket, a Terraform state moved to an http backend. The
// host is written out and is neither a placeholder, this machine's
// network, nor a known service's.
func configuredSinks(r *skillReading, scanned []*findings) {
	for i, raw := range r.texts {
		if !strings.Contains(raw, "vault") && !strings.Contains(raw, "backend") {
			continue
		}
		for _, u := range r.unitsOf(i) {
			if u.prose {
				continue
			}
			var m []int
			if strings.Contains(u.text, "socket") && rawAuditRE.MatchString(u.text) {
				m = rawAuditSocketRE.FindStringSubmatchIndex(u.text)
			}
			if m == nil && strings.Contains(u.text, `"http"`) && stateMovedRE.MatchString(raw) {
				m = httpBackendRE.FindStringSubmatchIndex(u.text)
			}
			if m == nil {
				continue
			}
			host := strings.ToLower(u.text[m[2]:m[3]])
			if ownHost(host, nil) || knownServiceHost(host) {
				continue
			}
			scanned[i].add(RuleExfiltrate, SeverityWithhold, u.start+m[2], u.start+m[3],
				"a system set to send what it holds (raw audit logs, a Terraform state) to "+host+" from now on")
		}
	}
}

// A gateway the user runs sees every request its users make, their
// logins with them; a fork can have it hand each one on to a host of its
// own, with one setting the skill presents as routing or telemetry:
// Traefik's forwardAuth or Envoy's ext_authz pointed at an outside
// "guard" (each request's Authorization and Cookie go to it), nginx's
// mirror of every request, an OpenTelemetry collector that keeps the
// requests' metadata (include_metadata: true) and exports to a fixed
// collector. The user's own auth service is a name of the user's network
// or a placeholder; a vendor's collector is a known service's.

var (
	// gatewayHandOffRE is such a setting, and the address it hands
	// requests to.
	gatewayHandOffRE = mustGate(`(?is)\bforwardauth\b[^\n]*(?:\n[^\n]*){0,8}?\baddress["']?\s*[:=]\s*["']?(https?://[^\s"',}\]]+)` +
		`|\bext_authz\b.{0,900}?\b(?:uri|server_uri)["']?\s*:\s*["']?(https?://[^\s"',}\]]+)`)
	// mirrorRE copies each request nginx serves to a location of its own,
	// whose proxy_pass (proxyPassRE) is where the copies go.
	mirrorRE    = regexp.MustCompile(`\bmirror\s+/[^\s;]*\s*;`)
	proxyPassRE = regexp.MustCompile(`\bproxy_pass\s+(https?://[^\s;]+)`)
	// metadataKeptRE keeps the requests' metadata, headers and all.
	metadataKeptRE = regexp.MustCompile(`(?i)\binclude_metadata["']?\s*:\s*true\b`)
	// exportEndpointRE is an exporter's address.
	exportEndpointRE = regexp.MustCompile(`(?i)\bendpoint["']?\s*:\s*["']?((?:https?://)?[a-z0-9][\w-]*(?:\.[\w-]+)+)`)
)

// gatewayHandOffs adds, to each file of a skill, a gateway or collector
// set to hand its requests on to a fixed host that is neither the user's
// nor a known service's, and that the skill does not name.
func gatewayHandOffs(r *skillReading, scanned []*findings) {
	for i := range r.texts {
		if !containsAny(r.lowered(i), []string{"forwardauth", "ext_authz", "mirror", "include_metadata"}) {
			continue
		}
		for _, u := range r.unitsOf(i) {
			if u.prose {
				continue
			}
			var spans [][]int
			for _, m := range gatewayHandOffRE.FindAllStringSubmatchIndex(u.text, 4) {
				for g := 2; g < len(m); g += 2 {
					if m[g] >= 0 {
						spans = append(spans, []int{m[g], m[g+1]})
					}
				}
			}
			if mirrorRE.MatchString(u.text) {
				for _, m := range proxyPassRE.FindAllStringSubmatchIndex(u.text, 8) {
					spans = append(spans, []int{m[2], m[3]})
				}
			}
			if metadataKeptRE.MatchString(u.text) {
				for _, m := range exportEndpointRE.FindAllStringSubmatchIndex(u.text, 8) {
					spans = append(spans, []int{m[2], m[3]})
				}
			}
			for _, sp := range spans {
				addr := u.text[sp[0]:sp[1]]
				if !strings.Contains(addr, "://") {
					addr = "https://" + addr
				}
				h := urlHostRE.FindStringSubmatch(addr)
				if h == nil {
					continue
				}
				host := strings.ToLower(h[1])
				if !strings.Contains(host, ".") || ownHost(host, nil) || knownServiceHost(host) || r.named().namesWord(host) {
					continue
				}
				scanned[i].add(RuleExfiltrate, SeverityWithhold, u.start+sp[0], u.start+sp[1],
					"a gateway set to hand every request it serves, logins included, to "+host)
				break
			}
		}
	}
}
