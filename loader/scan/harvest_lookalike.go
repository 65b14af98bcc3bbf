package scan

import (
	"regexp"
	"strings"
)

// A fork of a skill for a well-known service need not send the login
// itself: it points the service's own client at an address made to pass
// for the service's (SENTRY_URL=https://upload.sentry-relay.io,
// HF_ENDPOINT=https://hub-accel.hfmirror-cdn.net), and the client sends the
// login it holds there at the next upload. The address carries the
// service's name joined to other words, under a domain the service does
// not own. A skill that uses the service (its key, or its client's
// endpoint) and writes such an address into code that runs hands the
// user's login to whoever holds it.

// A knownService is a service whose clients hold a login: the words its
// variables of the environment start with, the words its name takes in a
// host, and the domains it owns.
type knownService struct {
	name    string
	envs    []string
	words   []string
	domains []string
}

// knownServices are services whose logins skills handle and forks imitate.
var knownServices = []knownService{
	{"Sentry", []string{"SENTRY"}, []string{"sentry"}, []string{"sentry.io", "sentry-cdn.com", "getsentry.com", "getsentry.net"}},
	{"Hugging Face", []string{"HF", "HUGGINGFACE", "HUGGING"}, []string{"huggingface", "hf"}, []string{"huggingface.co", "hf.co", "hf.space"}},
	{"GitHub", []string{"GITHUB", "GH"}, []string{"github"}, []string{"github.com", "githubusercontent.com", "githubassets.com", "github.io", "githubcopilot.com", "githubapp.com", "githubstatus.com", "ghcr.io"}},
	{"GitLab", []string{"GITLAB"}, []string{"gitlab"}, []string{"gitlab.com", "gitlab.io", "gitlab.net"}},
	{"npm", []string{"NPM"}, []string{"npm", "npmjs"}, []string{"npmjs.org", "npmjs.com", "npm.community"}},
	{"PyPI", []string{"PYPI", "TWINE"}, []string{"pypi"}, []string{"pypi.org", "pythonhosted.org", "python.org"}},
	{"OpenAI", []string{"OPENAI", "OAI"}, []string{"openai", "oai"}, []string{"openai.com", "oaiusercontent.com"}},
	{"Anthropic", []string{"ANTHROPIC"}, []string{"anthropic"}, []string{"anthropic.com", "claude.ai"}},
	{"Stripe", []string{"STRIPE"}, []string{"stripe"}, []string{"stripe.com", "stripe.network", "stripecdn.com"}},
	{"Slack", []string{"SLACK"}, []string{"slack"}, []string{"slack.com", "slack-edge.com", "slack-msgs.com", "slack-imgs.com", "slackb.com"}},
	{"Docker", []string{"DOCKER"}, []string{"docker"}, []string{"docker.io", "docker.com"}},
	{"Atlassian", []string{"JIRA", "CONFLUENCE", "ATLASSIAN"}, []string{"jira", "confluence", "atlassian"}, []string{"atlassian.net", "atlassian.com"}},
	{"Notion", []string{"NOTION"}, []string{"notion"}, []string{"notion.so", "notion.com", "notion.site"}},
	{"Figma", []string{"FIGMA"}, []string{"figma"}, []string{"figma.com"}},
	{"Vercel", []string{"VERCEL"}, []string{"vercel"}, []string{"vercel.com"}},
	{"Terraform Cloud", []string{"TFC", "TFE", "TERRAFORM"}, []string{"terraform", "hashicorp"}, []string{"terraform.io", "hashicorp.com", "hashicorp.cloud"}},
	{"Datadog", []string{"DD", "DATADOG"}, []string{"datadog", "datadoghq"}, []string{"datadoghq.com", "datadoghq.eu", "ddog-gov.com"}},
	{"Cloudflare", []string{"CLOUDFLARE", "CF"}, []string{"cloudflare"}, []string{"cloudflare.com"}},
	{"Twilio", []string{"TWILIO"}, []string{"twilio"}, []string{"twilio.com"}},
	{"Linear", []string{"LINEAR"}, []string{"linear"}, []string{"linear.app"}},
	{"Supabase", []string{"SUPABASE"}, []string{"supabase"}, []string{"supabase.co", "supabase.com", "supabase.io"}},
	{"Grafana", []string{"GRAFANA"}, []string{"grafana"}, []string{"grafana.com", "grafana.net"}},
	{"PagerDuty", []string{"PAGERDUTY", "PD"}, []string{"pagerduty"}, []string{"pagerduty.com"}},
	{"Okta", []string{"OKTA"}, []string{"okta"}, []string{"okta.com", "oktapreview.com", "okta-emea.com"}},
	{"Auth0", []string{"AUTH0"}, []string{"auth0"}, []string{"auth0.com"}},
	{"Firebase", []string{"FIREBASE"}, []string{"firebase"}, []string{"firebase.com", "firebaseio.com", "firebaseapp.com", "firebase.google.com"}},
	{"Shopify", []string{"SHOPIFY"}, []string{"shopify"}, []string{"shopify.com", "myshopify.com", "shopify.dev", "shopifycdn.com", "shopifysvc.com"}},
	{"Fastly", []string{"FASTLY"}, []string{"fastly"}, []string{"fastly.com", "fastly.net", "fastlylb.net", "fastly-edge.com"}},
	{"Snowflake", []string{"SNOWFLAKE"}, []string{"snowflake"}, []string{"snowflake.com", "snowflakecomputing.com"}},
	{"Heroku", []string{"HEROKU"}, []string{"heroku"}, []string{"heroku.com", "herokuapp.com", "herokucdn.com"}},
	{"Netlify", []string{"NETLIFY"}, []string{"netlify"}, []string{"netlify.com", "netlify.app"}},
	{"DigitalOcean", []string{"DIGITALOCEAN"}, []string{"digitalocean"}, []string{"digitalocean.com", "digitaloceanspaces.com"}},
	{"Discord", []string{"DISCORD"}, []string{"discord"}, []string{"discord.com", "discordapp.com", "discord.gg", "discordapp.net"}},
	{"Telegram", []string{"TELEGRAM", "TG"}, []string{"telegram"}, []string{"telegram.org", "telegram.me", "t.me"}},
	{"SendGrid", []string{"SENDGRID"}, []string{"sendgrid"}, []string{"sendgrid.com", "sendgrid.net"}},
	{"MongoDB", []string{"MONGODB", "MONGO", "ATLAS"}, []string{"mongodb"}, []string{"mongodb.com", "mongodb.net", "mongodb.org"}},
	{"Expo", []string{"EXPO", "EAS"}, []string{"expo"}, []string{"expo.dev", "expo.io", "exp.host"}},
	{"Zendesk", []string{"ZENDESK"}, []string{"zendesk"}, []string{"zendesk.com", "zdassets.com"}},
	{"Algolia", []string{"ALGOLIA"}, []string{"algolia"}, []string{"algolia.com", "algolia.net", "algolianet.com", "algolia.io"}},
	{"Mailchimp", []string{"MAILCHIMP", "MC"}, []string{"mailchimp"}, []string{"mailchimp.com", "list-manage.com", "mailchimpapp.com"}},
	{"Salesforce", []string{"SALESFORCE", "SF", "SFDC"}, []string{"salesforce"}, []string{"salesforce.com", "force.com", "salesforceliveagent.com", "sfdcstatic.com"}},
	{"Bitbucket", []string{"BITBUCKET"}, []string{"bitbucket"}, []string{"bitbucket.org", "bitbucket.io", "atlassian.com"}},
	{"Contentful", []string{"CONTENTFUL"}, []string{"contentful"}, []string{"contentful.com", "ctfassets.net"}},
	{"Pulumi", []string{"PULUMI"}, []string{"pulumi"}, []string{"pulumi.com", "pulumi.io"}},
	{"Mixpanel", []string{"MIXPANEL"}, []string{"mixpanel", "mxpnl"}, []string{"mixpanel.com", "mxpnl.com", "mxpnl.net"}},
	{"Segment", []string{"SEGMENT"}, []string{"segment"}, []string{"segment.com", "segment.io", "segmentapis.com"}},
	{"Amplitude", []string{"AMPLITUDE"}, []string{"amplitude"}, []string{"amplitude.com"}},
	{"PostHog", []string{"POSTHOG"}, []string{"posthog"}, []string{"posthog.com"}},
	{"Mailgun", []string{"MAILGUN"}, []string{"mailgun"}, []string{"mailgun.net", "mailgun.org", "mailgun.com"}},
	{"Postmark", []string{"POSTMARK"}, []string{"postmark", "postmarkapp"}, []string{"postmarkapp.com"}},
	{"Resend", []string{"RESEND"}, []string{"resend"}, []string{"resend.com", "resend.dev"}},
	{"Asana", []string{"ASANA"}, []string{"asana"}, []string{"asana.com"}},
	{"Trello", []string{"TRELLO"}, []string{"trello"}, []string{"trello.com"}},
	{"Dropbox", []string{"DROPBOX"}, []string{"dropbox"}, []string{"dropbox.com", "dropboxapi.com", "dropboxusercontent.com", "dropboxstatic.com"}},
	{"Airtable", []string{"AIRTABLE"}, []string{"airtable"}, []string{"airtable.com"}},
	{"Intercom", []string{"INTERCOM"}, []string{"intercom"}, []string{"intercom.io", "intercom.com", "intercomcdn.com", "intercomassets.com"}},
	{"HubSpot", []string{"HUBSPOT"}, []string{"hubspot"}, []string{"hubspot.com", "hubapi.com", "hubspotusercontent.com", "hs-scripts.com", "hsforms.com"}},
	{"Zoom", []string{"ZOOM"}, []string{"zoom"}, []string{"zoom.us", "zoom.com", "zoomgov.com"}},
	{"Spotify", []string{"SPOTIFY"}, []string{"spotify"}, []string{"spotify.com", "scdn.co", "spotifycdn.com"}},
	{"Google", []string{"GOOGLE", "GCP", "GCLOUD", "GCS", "GEMINI", "YOUTUBE"}, []string{"google", "googleapis", "gcloud", "youtube"}, []string{
		"google.com", "googleapis.com", "gstatic.com", "googleusercontent.com", "google.dev", "withgoogle.com", "googlesource.com",
		"google-analytics.com", "googletagmanager.com", "googlevideo.com", "googlesyndication.com", "googleadservices.com",
		"googleblog.com", "googlegroups.com", "googlemail.com", "googledrive.com", "googlecode.com", "gcr.io", "pkg.dev",
		"appspot.com", "cloudfunctions.net", "run.app", "web.app", "youtube.com", "youtu.be", "ytimg.com", "youtube-nocookie.com"}},
	{"Azure", []string{"AZURE"}, []string{"azure"}, []string{"azure.com", "azure.net", "windows.net", "azureedge.net", "azurewebsites.net",
		"azure-api.net", "azurecr.io", "azurefd.net", "azurestaticapps.net", "azure-devices.net", "azuredatabricks.net", "microsoft.com", "microsoftonline.com",
		"azurecontainerapps.io", "azurecontainer.io", "azureml.ms", "azureml.net", "azure-apim.net", "azurehdinsight.net", "azuresynapse.net",
		"azure-automation.net", "azureiotcentral.com", "azure-mobile.net", "windowsazure.com", "azure.us", "azure.cn"}},
	{"Apple", []string{"APPLE", "ASC", "APPSTORE", "FASTLANE"}, []string{"apple", "appleid", "icloud", "appstoreconnect"}, []string{
		"apple.com", "icloud.com", "mzstatic.com", "apple-cloudkit.com", "cdn-apple.com", "apple-dns.net", "itunes.com", "me.com"}},
	{"Pinecone", []string{"PINECONE"}, []string{"pinecone"}, []string{"pinecone.io"}},
	{"Cohere", []string{"COHERE"}, []string{"cohere"}, []string{"cohere.com", "cohere.ai"}},
	{"Mistral", []string{"MISTRAL"}, []string{"mistral"}, []string{"mistral.ai"}},
	{"Groq", []string{"GROQ"}, []string{"groq"}, []string{"groq.com"}},
	{"Perplexity", []string{"PERPLEXITY", "PPLX"}, []string{"perplexity"}, []string{"perplexity.ai"}},
	{"OpenRouter", []string{"OPENROUTER"}, []string{"openrouter"}, []string{"openrouter.ai"}},
	{"DeepSeek", []string{"DEEPSEEK"}, []string{"deepseek"}, []string{"deepseek.com"}},
	{"Replicate", []string{"REPLICATE"}, []string{"replicate"}, []string{"replicate.com", "replicate.delivery"}},
	{"ElevenLabs", []string{"ELEVENLABS", "ELEVEN"}, []string{"elevenlabs"}, []string{"elevenlabs.io"}},
	{"Weights & Biases", []string{"WANDB"}, []string{"wandb"}, []string{"wandb.ai", "wandb.com"}},
	{"Clerk", []string{"CLERK"}, []string{"clerk"}, []string{"clerk.com", "clerk.dev"}},
	{"Neon", []string{"NEON"}, []string{"neon"}, []string{"neon.tech", "neon.com"}},
	{"PlanetScale", []string{"PLANETSCALE"}, []string{"planetscale"}, []string{"planetscale.com", "psdb.cloud"}},
	{"Upstash", []string{"UPSTASH"}, []string{"upstash"}, []string{"upstash.io", "upstash.com"}},
	{"Railway", []string{"RAILWAY"}, []string{"railway"}, []string{"railway.app", "railway.com"}},
	{"CircleCI", []string{"CIRCLECI", "CIRCLE"}, []string{"circleci"}, []string{"circleci.com"}},
	{"Buildkite", []string{"BUILDKITE"}, []string{"buildkite"}, []string{"buildkite.com"}},
	{"Codecov", []string{"CODECOV"}, []string{"codecov"}, []string{"codecov.io"}},
	{"Snyk", []string{"SNYK"}, []string{"snyk"}, []string{"snyk.io"}},
	{"Bugsnag", []string{"BUGSNAG"}, []string{"bugsnag"}, []string{"bugsnag.com"}},
	{"Rollbar", []string{"ROLLBAR"}, []string{"rollbar"}, []string{"rollbar.com"}},
	{"New Relic", []string{"NEW", "NEWRELIC", "NR"}, []string{"newrelic"}, []string{"newrelic.com", "nr-data.net", "nr-assets.net"}},
	{"Honeycomb", []string{"HONEYCOMB"}, []string{"honeycomb"}, []string{"honeycomb.io"}},
	{"LaunchDarkly", []string{"LAUNCHDARKLY", "LD"}, []string{"launchdarkly"}, []string{"launchdarkly.com"}},
	{"Postman", []string{"POSTMAN"}, []string{"postman", "getpostman"}, []string{"postman.com", "getpostman.com", "pstmn.io"}},
	{"Cloudinary", []string{"CLOUDINARY"}, []string{"cloudinary"}, []string{"cloudinary.com"}},
	{"Backblaze", []string{"B2", "BACKBLAZE"}, []string{"backblaze", "backblazeb2"}, []string{"backblaze.com", "backblazeb2.com"}},
	{"RubyGems", []string{"GEM", "RUBYGEMS"}, []string{"rubygems"}, []string{"rubygems.org"}},
	{"NuGet", []string{"NUGET"}, []string{"nuget"}, []string{"nuget.org"}},
	{"Maven Central", []string{"MAVEN", "OSSRH", "SONATYPE"}, []string{"maven", "mavencentral", "sonatype"}, []string{"maven.org", "sonatype.org", "sonatype.com", "apache.org"}},
	{"Packagist", []string{"COMPOSER", "PACKAGIST"}, []string{"packagist"}, []string{"packagist.org", "packagist.com"}},
	{"Quay", []string{"QUAY"}, []string{"quay"}, []string{"quay.io"}},
	{"Zotero", []string{"ZOTERO"}, []string{"zotero"}, []string{"zotero.org"}},
	// The services of the skills written in Chinese, Japanese and
	// Russian (harvest_languages.go).
	{"Gitee", []string{"GITEE"}, []string{"gitee"}, []string{"gitee.com", "gitee.io"}},
	{"Feishu", []string{"FEISHU", "LARK"}, []string{"feishu", "larksuite"}, []string{"feishu.cn", "feishu.net", "larksuite.com", "larkoffice.com"}},
	{"DingTalk", []string{"DINGTALK", "DINGDING"}, []string{"dingtalk"}, []string{"dingtalk.com"}},
	{"WeChat", []string{"WECHAT", "WECOM", "WEWORK", "WEIXIN", "WX"}, []string{"weixin", "wechat"}, []string{"weixin.qq.com", "wechat.com", "qq.com"}},
	{"Alibaba Cloud", []string{"ALIYUN", "ALIBABA", "ALICLOUD", "OSS"}, []string{"aliyun", "alibabacloud", "aliyuncs"}, []string{"aliyun.com", "aliyuncs.com", "alibabacloud.com", "alicdn.com"}},
	{"Tencent Cloud", []string{"TENCENTCLOUD", "TENCENT", "TCCLI", "COS"}, []string{"tencentcloud", "tencentcloudapi", "myqcloud"}, []string{"tencentcloudapi.com", "tencent.com", "myqcloud.com", "tencentcs.com"}},
	{"Baidu", []string{"BAIDU", "QIANFAN"}, []string{"baidu", "baidubce", "bcebos"}, []string{"baidu.com", "baidubce.com", "bcebos.com"}},
	{"Huawei Cloud", []string{"HUAWEICLOUD", "HUAWEI"}, []string{"huaweicloud", "myhuaweicloud"}, []string{"huaweicloud.com", "myhuaweicloud.com"}},
	{"Yandex", []string{"YANDEX", "YC"}, []string{"yandex"}, []string{"yandex.ru", "yandex.net", "yandex.com", "yandex.cloud", "yandexcloud.net"}},
}

// publicMirrors are the registered domains and hosts of public mirrors of
// package registries that users in China and elsewhere set as their
// registry (registry.npmmirror.com, pypi.tuna.tsinghua.edu.cn): run by a
// university or a cloud, they carry a registry's name without being one
// made to pass for it.
var publicMirrors = []string{"npmmirror.com", "cnpmjs.org", "goproxy.cn", "goproxy.io", "tuna.tsinghua.edu.cn", "mirrors.ustc.edu.cn", "mirrors.aliyun.com", "maven.aliyun.com", "mirrors.cloud.tencent.com", "mirrors.huaweicloud.com", "repo.huaweicloud.com", "mirrors.bfsu.edu.cn", "mirror.sjtu.edu.cn", "mirrors.sjtug.sjtu.edu.cn"}

// publicMirror reports whether host is one of publicMirrors or under one.
func publicMirror(host string) bool {
	for _, m := range publicMirrors {
		if host == m || strings.HasSuffix(host, "."+m) {
			return true
		}
	}
	return false
}

// inlineSettingRE is inline code of prose that sets a variable of the
// environment to an address.
var inlineSettingRE = regexp.MustCompile("`(?:export\\s+|set\\s+|\\$env:)?[A-Z][A-Z0-9_]*\\s*=\\s*[\"']?https?://[^`\\s]+`")

// spansHosts returns the submatch indexes of urlHostRE in the spans of
// text.
func spansHosts(text string, spans [][]int) [][]int {
	var out [][]int
	for _, sp := range spans {
		for _, m := range urlHostRE.FindAllStringSubmatchIndex(text[sp[0]:sp[1]], 32) {
			for j := range m {
				m[j] += sp[0]
			}
			out = append(out, m)
		}
	}
	return out
}

// serviceEnvRE is the first word of a variable of the environment read or
// set in code.
var serviceEnvRE = regexp.MustCompile(`\b([A-Z][A-Z0-9]*)_[A-Z0-9_]*[A-Z0-9]\b`)

// lookAlikeHosts adds, to each file of a skill, an address written into
// code that passes for a known service's when the skill uses that
// service: names a variable of its environment (SENTRY_AUTH_TOKEN,
// HF_ENDPOINT).
func lookAlikeHosts(r *skillReading, scanned []*findings) {
	var used map[int]bool // the knownServices the skill's variables name
	for i, raw := range r.texts {
		if !strings.Contains(raw, "://") {
			continue
		}
		for _, u := range r.unitsOf(i) {
			if !strings.Contains(u.text, "://") {
				continue
			}
			spans := [][]int{{0, len(u.text)}}
			if u.prose {
				// Prose is read only where its inline code sets a
				// variable to an address (`export OPENAI_BASE_URL=…`).
				spans = inlineSettingRE.FindAllStringIndex(u.text, 8)
			}
			for _, m := range spansHosts(u.text, spans) {
				if strings.HasSuffix(u.text[:m[0]], "](") || strings.HasSuffix(u.text[:m[0]], "src=\"") {
					continue // an image or a link of a page the code writes
				}
				s := imitated(strings.ToLower(u.text[m[2]:m[3]]))
				if s < 0 {
					continue
				}
				if used == nil {
					used = servicesUsed(r.texts)
				}
				if !used[s] {
					continue
				}
				scanned[i].add(RuleExfiltrate, SeverityWithhold, u.start+m[2], u.start+m[3],
					"an address made to pass for "+knownServices[s].name+"'s in a skill that uses "+knownServices[s].name+": its client sends the user's login there")
				break
			}
		}
	}
}

// imitated returns the index in knownServices of the service whose name
// host carries, under a domain the service does not own, or -1. The name
// is a word of the registered domain's label joined to others with a
// hyphen (sentry-relay.io), or runs into another word (testpypi.org,
// hfmirror-cdn.net).
func imitated(host string) int {
	if ownHost(host, nil) || publicMirror(host) {
		return -1
	}
	reg := registered(host)
	label, _, _ := strings.Cut(reg, ".")
	parts := strings.Split(label, "-")
	for i, s := range knownServices {
		if s.owns(host, reg) {
			return -1
		}
		for _, w := range s.words {
			for _, p := range parts {
				if p == w && len(parts) > 1 || len(w) >= 4 && strings.Contains(p, w) && p != w || p == parts[0] && strings.HasPrefix(p, w) && len(p) > len(w)+3 {
					return i
				}
			}
		}
	}
	return -1
}

// owns reports whether host, whose registered domain is reg, is one of
// the service's domains or under one.
func (s knownService) owns(host, reg string) bool {
	for _, d := range s.domains {
		if reg == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

// servicesByEnv is knownServices by the words their variables of the
// environment start with.
var servicesByEnv = func() map[string][]int {
	out := map[string][]int{}
	for i, s := range knownServices {
		for _, e := range s.envs {
			out[e] = append(out[e], i)
		}
	}
	return out
}()

// servicesUsed returns the knownServices whose variables of the
// environment the skill's texts name.
func servicesUsed(texts []string) map[int]bool {
	out := map[int]bool{}
	for _, raw := range texts {
		for _, m := range serviceEnvRE.FindAllStringSubmatch(raw, 256) {
			for _, i := range servicesByEnv[m[1]] {
				out[i] = true
			}
		}
	}
	return out
}
