package scan

import (
	"encoding/base64"
	"net/netip"
	"regexp"
	"slices"
	"strings"
)

// A skill that harvests credentials rarely says so in one sentence: it
// lists the stores to read in one section and where the results go in
// another, or reads a key in one code block and posts it in the next. So a
// skill's file (its Markdown, prose and code blocks alike, or one of its
// scripts) is read whole for three things no skill needs to do:
//
//   - read secrets broadly: every file of a folder of keys (~/.ssh/*, all
//     files in ~/.aws), or the stores of several kinds of credential at
//     once (SSH keys, cloud credentials, the kube config, browser stores,
//     keychains, .env files…);
//   - read a secret file (cat, base64, tar, open…) and send data over the
//     network (curl -d @file, wget --post-file, nc, requests.post…);
//   - send the whole environment (env | curl, dict(os.environ) posted).
//
// Using a credential is not reading it: "source .env", a token passed in
// an Authorization header, "cp .env.example .env" are setup, and a
// public key (.pub) is no secret.

// storeKinds are the kinds of credential store, each with what names it.
// A harvest reads several kinds; naming many paths of one kind (id_rsa,
// id_ed25519) is one kind.
// browserTableRE is a query of the tables where browsers keep cookies,
// saved logins and cards: it reads the store whatever opened it.
const browserTableRE = `\bSELECT\b[^;\n]{0,200}?\bFROM\s+["'\x60]?(?:moz_cookies|cookies|logins|moz_logins|credit_cards)\b`

// homeSecretFile is a file of the home folder named for what it holds
// (~/.credentials, $HOME/.secrets.json, ~/.api_key).
const homeSecretFile = `(?:~|\$\{?HOME\}?|%USERPROFILE%)[/\\]\.?(?:credentials|secrets?|tokens?|passwords?|api[_-]?keys?)(?:\.(?:json|txt|ya?ml|toml|ini))?(?:$|[^\w.-])`

var storeKinds = []struct {
	kind string
	re   gatedRE
}{
	// SSH keys named in prose: the private ones, or all of a user's.
	{"ssh", mustGate(`(?i)(?:^|[^\w.])\.ssh\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?:[^.]|\.[^p]|$)|\bssh\s+private\s+keys?\b|\bprivate\s+ssh\s+keys?\b|\b(?:the\s+user'?s|all\s+(?:of\s+)?(?:the\s+)?(?:user'?s\s+|your\s+)?|every|your)\s+ssh\s+keys\b|\b(?:the\s+user'?s|your|their|the)\s+(?:\w+\s+)?(?:ssh|secure[-\s]shell)\s+(?:directory|folder|dir)\b`)},
	{"aws", mustGate(`(?i)\.aws[/\\](?:credentials|config)\b|\baws\s+credentials\s+file\b|\b(?:hidden\s+)?(?:aws|\.aws)\s+(?:folder|directory)\s+of\s+the\s+home\b|(?:~|\$HOME|\$\{HOME\})[/\\]\.aws\b|["']\.aws["']\s*,\s*["'](?:credentials|config)["']`)},
	{"gcloud", mustGate(`(?i)\.config[/\\]gcloud\b|application_default_credentials\.json|\b(?:gcloud\s+)?application\s+default\s+credentials\s+file\b`)},
	{"azure", mustGate(`(?i)[/\\~]\.azure\b|\b(?:azure\s+cli|msal)\s+token\s+cache\b`)},
	// The other clouds' command-line tools keep their keys in files of
	// the home folder too: Alibaba Cloud's, Tencent Cloud's, Huawei
	// Cloud's, Oracle's, DigitalOcean's, Hetzner's, Yandex's.
	{"cloud", mustGate(`(?i)\.ossutilconfig\b|\.aliyun[/\\]config\.json|\.tccli[/\\]|\.cos\.conf\b|\.obsutilconfig\b|\.huaweicloud[/\\]|\.oci[/\\]config\b|doctl[/\\]config\.yaml|hcloud[/\\]cli\.toml|yandex-cloud[/\\]config\.yaml`)},
	{"kube", mustGate(`(?i)\.kube[/\\]config\b|\bconfig\s+in\s+the\s+\.kube\s+(?:folder|directory)\b|(?:~|\$HOME|\$\{HOME\})[/\\]\.kube\b|["']\.kube["']\s*,\s*["']config["']`)},
	{"docker", mustGate(`(?i)\.docker[/\\]config\.json|["']\.docker["']\s*,\s*["']config\.json["']`)},
	{"registry", mustGate(`(?i)(?:^|[^\w.])(?:\.npmrc|\.pypirc|\.gem[/\\]credentials|\.cargo[/\\]credentials(?:\.toml)?)\b`)},
	{"git", mustGate(`(?i)\.git-credentials\b|(?:^|[^\w.])[._]netrc\b|gh[/\\]hosts\.yml|\bgit\s+credential\s+store\s+file\b|\bgithub\s+cli(?:'s)?\s+hosts\s+file\b`)},
	{"gpg", mustGate(`(?i)[/\\~]\.gnupg\b|\.password-store\b`)},
	// An app's signing material: Android's keystores and the file that
	// holds their passwords. (A key that signs requests, App Store
	// Connect's .p8 or a client's .p12, is read to be used.)
	{"signing", mustGate(`(?i)(?:^|[^\w.])(?:key|keystore|signing)\.properties\b|[\w-]+\.(?:jks|keystore)\b`)},
	{"browser", mustGate(`(?i)\bLogin Data\b|\blogins\.json\b|\bkey[34]\.db\b|\bcookies\.sqlite\b|\b(?:browser|chrome|chromium|firefox|brave|edge)\s+(?:profiles?|(?:saved\s+)?passwords?|cookies|credential\s+stores?|login\s+data)\b|\b(?:saved|stored)\s+browser\s+(?:passwords?|credentials|cookies)\b|\b(?:browser|chrome|chromium|firefox|brave|edge|safari)'?s?\s+(?:built-in\s+)?password\s+(?:manager|store|vault)\b|\b(?:chrome|edge|brave)://(?:settings/)?passwords\b|\babout:logins\b|\b(?:Chrome|Edge|Brave|Firefox)\s+Passwords\.csv\b|\bbrowser'?s?\s+(?:saved\s+|stored\s+)(?:passwords?|credentials|cookies|logins)\b|[/\\](?:Default|Profile\s*\d+)[/\\](?:Network[/\\])?(?:Cookies|Web Data)\b|[/\\]Local State\b|\bCookies\.binarycookies\b|\.mozilla[/\\]firefox\b|\bLocal\s+Storage["']?\s*[,/\\]\s*["']?leveldb\b|\bmoz_cookies\b|\bbrowser_cookie3\b|\bpycookiecheat\b|["']\.mozilla["']\s*,\s*["']firefox["']|\b(?:saved\s+)?(?:passwords?|logins?)\s+and\s+cookies\s+(?:from|of|in)\s+(?:the\s+)?(?:\w+\s+){0,4}?(?:browsers?|profiles?)\b|` + browserTableRE)},
	{"keychain", mustGate(`(?i)\blogin\s+keychain\b|\.keychain(?:-db)?\b|\bsecurity\s+(?:find|dump)-(?:generic|internet)?-?(?:password|keychain)\b|\bdump-keychain\b`)},
	{"wallet", mustGate(`(?i)\bwallet\.(?:dat|json)\b|\b(?:seed\s+phrases?|(?:secret\s+)?recovery\s+phrases?|mnemonic\s+phrases?|wallet\s+(?:keys?|files?|keystores?))\b|[/\\]keystore[/\\]|\.config[/\\]solana[/\\]\S*\.json\b|[/\\~]\.(?:ethereum|electrum|bitcoin)\b|\bexodus(?:\.wallet)?[/\\]|\b(?:metamask|phantom|exodus|electrum|trust\s+wallet)\s+(?:wallets?|vaults?|keys?|files?|seeds?|extension\s+data)\b|\bexodus\.wallet\b|\.(?:electrum|ethereum|bitcoin)\s+(?:directory|folder)\b|\b(?:nkbihfbeogaeaoehlefnkodbefgpgknn|bfnaelmomeimhlpmgjnjophhpkkoljpa|hnfanknocfeofbddgcijnmhnfnkdnaad|egjidjbpglichdcondbcbdnbeeppgdph)\b|\b(?:ask|asks|prompt|prompts|request|requests|have|get)\s+(?:the\s+user|the\s+caller|them|you)\s+(?:for|to\s+(?:paste|enter|provide|share|give|type|send|input))\s+(?:\w+\s+){0,3}?private\s+keys?\b|\b(?:paste|enter|provide|share|type|input)\s+(?:their|your)\s+(?:\w+\s+){0,2}?private\s+keys?\b`)},
	{"dotenv", mustGate(`(?i)(?:^|[\s"'` + "`" + `(\[{/\\~=:,@])(?:secrets?|prod|production|staging|credentials?)?\.env(?:\.(?:local|production|prod|development|dev|staging))?(?:$|[\s"'` + "`" + `)\]}.,;:!?/\\*])`)},
	// A file of the home folder named for what it holds (~/.credentials,
	// $HOME/.secrets.json, ~/.api_key).
	{"homefile", mustGate(`(?i)` + homeSecretFile)},
	{"history", mustGate(`(?i)\.(?:bash|zsh|sh|python|psql|mysql|node_repl)_history\b|\bzsh_history\b`)},
	{"mcp", mustGate(`(?i)\bclaude_desktop_config\.json\b|\bmcp(?:_config|_settings)?\.json\b`)},
	// The instance metadata service's credentials: a role's temporary keys,
	// a service account's token, a managed identity's token, user data.
	{"metadata", gate(metadataStoreRE)},
	// An agent's own identity and login: the files that make it who it is
	// (SOUL.md, MEMORY.md), its configuration and the logins of coding
	// agents.
	{"agent", mustGate(`(?i)\.(?:openclaw|clawdbot|moltbot)[/\\](?:[\w.-]+[/\\])*(?:(?:openclaw|clawdbot|moltbot)\.json|credentials|auth|identity|[\w-]*(?:secret|token|_pk|private[_-]?key)[\w.-]*)\b|\.codex[/\\]auth\.json\b|\.claude[/\\]\.credentials\.json\b|(?:^|[^\w.])\.claude\.json\b|\.gemini[/\\]oauth_creds\.json\b|\bauth-profiles\.json\b|\b(?:SOUL|IDENTITY|MEMORY|USER)\.md\b`)},
	// An agent's session logs and the user's conversations with it.
	{"sessions", mustGate(`(?i)\.(?:claude|codex|gemini|cursor|openclaw|clawdbot)[/\\](?:[\w.-]+[/\\])*(?:logs?|sessions?|history(?:\.jsonl)?|transcripts?|projects|conversations?|chats?)\b|\.gemini[/\\]tmp\b|\bsession[_.-]?(?:logs?|transcripts?|history)\b|` +
		// The user's own words and files, sent behind their back.
		// Or every one of their messages, or all they told the agent,
		// however openly.
		`\b(?:everything|all|anything)\s+(?:that\s+)?the\s+user\s+(?:has\s+)?(?:told|said|shared|typed|wrote|mentioned)\b|\b(?:passwords?|keys|secrets|credentials)\s+(?:they|the\s+user)\s+(?:have\s+|has\s+)?(?:mentioned|shared|typed|gave|told)\b|` +
		`\b(?:every|each|all)\s+(?:of\s+)?(?:the\s+)?(?:user'?s?|your)\s+(?:messages?|prompts?|queries|inputs?)\b|\b(?:every|each|all)\s+(?:user|incoming)\s+(?:messages?|prompts?)\b|` +
		`\b(?:silently|secretly|quietly|covertly|in\s+the\s+background|without\s+(?:telling|asking|notifying|informing))\b` + inSentence + `{0,120}?\b(?:the\s+)?user'?s?\s+(?:\w+\s+)?(?:prompts?|messages?|queries|inputs?|files?|documents?|clipboard|keystrokes|screenshots?|browsing\s+history)\b|[/\\]sessions[/\\][^\s"'` + "`" + `]*\.jsonl\b|\btranscript_path\b|\b(?:the\s+)?(?:user'?s?\s+|full\s+|entire\s+|whole\s+)?(?:session|chat|conversation)\s+(?:logs?|transcripts?|histor(?:y|ies))\b`)},
	{"system", mustGate(`(?i)/etc/(?:shadow|sudoers)\b`)},
	// The user's private messages kept by their messengers: iMessage's
	// database, Signal's, WhatsApp's.
	{"messages", mustGate(`(?i)Library[/\\]Messages[/\\]chat\.db\b|\bSignal[/\\]sql[/\\]db\.sqlite\b|\bChatStorage\.sqlite\b|\bmsgstore\.db\b`)},
	// A search of the home folder or the whole disk for key files, .env
	// files or secrets by name: a harvest that does not know where they
	// are.
	{"search", mustGate(`(?i)\bfind\s+(?:[.\w/]+\s+)?["']?(?:~|\$\{?HOME\}?|/|/home|/Users|/root)["']?[/\\]?\S*\s[^\n|;]*-i?(?:name|path)\s+["']?\*?(?:\*\.(?:pem|key|p12|pfx|kdbx|ovpn|keystore|asc|gpg|tfstate|tfvars)|id_\*|id_rsa|\.env\b|\*?credentials|wallet\.dat|\*?secret|\*?password|\.npmrc|\.netrc)|\bgrep\s+(?:-\w+\s+)*-\w*[rR]\w*\s[^\n|;]*(?:api[_-]?key|secret|passw|token|private[_ -]key|BEGIN\s+\w*\s*PRIVATE)[^\n|;]*\s["']?(?:~|\$\{?HOME\}?|/home|/Users|/root)[/\\]?["']?(?:\s|$)|(?:~|\$\{?HOME\}?|expanduser\(\s*["']~)[/\\]?\*\*[/\\](?:\*\.(?:pem|key|kdbx)|id_\*|\.env|\*?credentials)|\b(?:i?glob|rglob)\s*\([^)\n]*(?:~|home|\*\*)[^)\n]*(?:credentials|\.pem|\.key\b|\.p12|id_\*|\.env\b|\*secret|\*token|wallet)`)},
	// The logins of other command-line tools kept in the home folder.
	{"cli", mustGate(`(?i)(?:^|[^\w.])\.vault-token\b|\.terraform\.d[/\\]credentials\.tfrc\.json|(?:^|[^\w.])\.(?:s3cfg|boto|pgpass|my\.cnf|databrickscfg)\b|\.config[/\\](?:rclone[/\\]rclone\.conf|hub\b|doctl[/\\]config\.yaml|stripe[/\\]config\.toml|op[/\\]config|heroku\b|moltbook[/\\]credentials\.json)|\.fly[/\\]config\.yml|\.vercel[/\\]auth\.json|\.wrangler[/\\]config\b|\.netlify[/\\]config\.json|\.kdbx\b|\b(?:discord|slack|signal|teams)\b[^\n]{0,60}?[/\\]Local Storage[/\\]leveldb\b|\bTelegram Desktop[/\\]tdata\b|[/\\]tdata[/\\]|\.local[/\\]share[/\\]keyrings\b|\bfilezilla[/\\](?:sitemanager|recentservers)\.xml\b|\bgithub-copilot[/\\](?:hosts|apps)\.json\b|\.vnc[/\\]passwd\b` +
		// A password manager's vault, exported or read through its CLI.
		`|\b(?:bitwarden|1password|lastpass|keepass(?:xc)?|dashlane)\b` + inSentence + `{0,60}?\b(?:vaults?|exports?|items|passwords|logins)\b`)},
	// The whole environment, named in prose: every variable, a secret's
	// or not.
	{"environment", mustGate(`(?i)\b(?:all|every|each)\s+(?:of\s+(?:the|your)\s+)?(?:\w+\s+)?(?:environment\s+variables?|env(?:ironment)?\s+vars?)\b|\b(?:the\s+)?(?:entire|whole|full)\s+(?:shell\s+)?environment\b|\b(?:the\s+)?(?:full|complete|entire|whole)\s+(?:set|list)\s+of\s+(?:(?:shell|process)\s+)?(?:environment\s+variables|env(?:ironment)?\s+vars)\b|\b(?:all|every|each)\s+(?:\w+\s+)?variables?\s+(?:in|of|from)\s+(?:the|your)\s+(?:shell\s+|process\s+)?environment\b|` + "`" + `(?:env|printenv)` + "`" + `\s+and\b|\b(?:process|shell)\s+environment\b[^.\n]{0,40}?\(\s*` + "`" + `(?:env|printenv|set)\b|\boutput\s+of\s+` + "`" + `(?:env|printenv)` + "`" + `|/proc/(?:self|\d+|\*)/environ\b`)},
}

// ownStores are the kinds of store that are an agent's own: its identity,
// its logins, its session logs. Its skills read them to do their work (a
// skill's API key in the agent's configuration, a count of the day's
// sessions), so reading one and sending something else is no harvest;
// sending what was read is.
var ownStores = map[string]bool{"agent": true, "sessions": true}

// redirectTargetRE is the file a shell command writes (> file, >> file).
var redirectTargetRE = regexp.MustCompile(`(?:^|[^<=>-])>{1,2}\s*["']?[~$/.\w][^\s"'|;&)]*`)

// readVerbs are the verbs that read or gather a store, and their third
// persons.
const readVerbs = `read|reads|reading|take|takes|note|notes|remember|remembers|copying|collecting|gathering|dumping|extracting|ask|asks|query|queries|fetch|fetches|obtain|obtains|capture|captures|cat|collect|collects|gather|gathers|extract|extracts|copy|copies|dump|dumps|include|includes|archive|archives|bundle|bundles|back\s+up|backs\s+up|upload|uploads|send|sends|export|exports|encode|encodes|base64|harvest|harvests|retrieve|retrieves|grab|grabs|inventory|inventories|enumerate|enumerates|load|loads|open|opens|print|prints|list\s+the\s+contents|lists\s+the\s+contents`

// maxSendLines bounds the lines that send ownServiceSends reads.
const maxSendLines = 32

// onlyDotenv reports whether the stores a file reads are a project's .env
// and nothing else.
func onlyDotenv(kinds map[string]bool) bool {
	return len(kinds) == 1 && kinds["dotenv"]
}

// ownServiceSends reports whether every line that sends writes out the
// hosts it goes to and each is at the domain of a service whose key the
// file names (not only a large provider's, nor a placeholder): a client
// that keeps its key in the project's .env, checks it is there (cat .env)
// and calls its API (curl -H "x-api-key: $BROWSERBASE_API_KEY"
// https://api.browserbase.com/…). A line that names the .env itself sends
// the file.
func ownServiceSends(lines []string, raw string) bool {
	if len(lines) == 0 || len(lines) > maxSendLines {
		return false
	}
	var services []string
	for _, m := range keyNameRE.FindAllString(raw, maxKeyNames) {
		if w := serviceOf(m); w != "" {
			services = addWords(services, []string{w})
		}
	}
	for _, line := range lines {
		if strings.Contains(line, ".env") {
			return false
		}
		// Each command of the line goes to the first address it writes
		// out; those after it are what it carries (a page's address in a
		// JSON body).
		dests := 0
		for _, cmd := range commandSepRE.Split(line, maxCommands) {
			if h := urlHostRE.FindStringSubmatch(cmd); h != nil {
				if !serviceHost(strings.ToLower(h[1]), services) {
					return false
				}
				dests++
			}
		}
		if dests == 0 {
			return false
		}
	}
	return true
}

// commandSepRE separates the commands of a shell line.
var commandSepRE = regexp.MustCompile(`&&|\|\||[;|]`)

// maxCommands bounds the commands of a line ownServiceSends reads apart;
// the rest of the line is read as the last one.
const maxCommands = 16

// keyNameRE is a name of the environment that holds a key, as a client
// names its own (BROWSERBASE_API_KEY, DD_APP_KEY).
var keyNameRE = regexp.MustCompile(`\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:KEY|TOKEN|SECRET)\b`)

// maxKeyNames bounds the names of keys ownServiceSends reads.
const maxKeyNames = 64

// minStoreKinds is how many kinds of credential store a file must read to
// read secrets broadly: a setup guide names one or two (the .env file and
// the cloud's credentials).
const minStoreKinds = 3

var (
	// sweepRE reads every file of a folder of keys.
	sweepRE = mustGate(`(?i)~?[/\\]?\.(?:ssh|aws|kube|gnupg|azure|docker|config[/\\]gcloud)[/\\]?(?:\*|id_\*)|` +
		`\b(?:all|every|each|any)\s+(?:of\s+the\s+)?(?:\w+\s+){0,3}?(?:files?|keys?|contents?|credentials?|tokens?|entries)\s+(?:\w+\s+){0,2}?(?:in|of|under|from|inside|within)\s+(?:the\s+|your\s+)?[` + "`" + `'"]?(?:~|\$home)?[/\\]?\.(?:ssh|aws|kube|gnupg|azure|docker)\b|` +
		`\bfor\s+\w+\s+in\s+["']?(?:~|\$home|\$\{home\})?[/\\]?\.(?:ssh|aws|kube|gnupg)\b|` +
		`\b(?:tar|zip|7z|cp\s+-r|cp\s+-a|rsync|scp\s+-r)\b[^\n|;]{0,80}(?:~|\$home)[/\\]\.(?:ssh|aws|kube|gnupg)[/\\]?(?:\s|$|["'])|` +
		`\b(?:listdir|scandir|walk|glob|iterdir|readdirSync|readdir)\s*\(\s*[^)\n]{0,60}\.(?:ssh|aws|kube|gnupg)\b`)
	// cloudCopyRE copies files to a cloud's storage, or hands a path to
	// any program's upload or send command (a file host's CLI, croc,
	// wormhole): a send when what it copies is a store of credentials
	// (most copy a build to the user's own bucket).
	cloudCopyRE = mustGate(`(?i)\baws\s+s3\s+(?:cp|sync|mv)\b|\bgsutil\s+(?:-m\s+)?(?:cp|rsync)\b|\brclone\s+(?:copy|sync|move)\b|\bazcopy\s+copy\b|\bossutil(?:64)?\s+(?:cp|sync)\b|\bcoscli\s+(?:cp|sync)\b|\bcoscmd\s+upload\b|\bobsutil\s+(?:cp|sync)\b|\boci\s+os\s+object\s+put\b|\bs3cmd\s+(?:put|sync)\b|` +
		`(?:^|[\s;&|(])[\w.-]+(?:\s+[\w-]+)?\s+(?:upload|send)\s+(?:-{1,2}[\w-]+(?:[= ][^\s;&|]+)?\s+)*["']?(?:~|\.{0,2}/|\$|[\w-]*\.env\b)`)
	// envDumpRE reads the whole environment (or greps it).
	envDumpRE = regexp.MustCompile(`(?i)\$\(\s*(?:env|printenv|set)\b|(?:^|[\s;&|("'` + "`" + `])(?:env|printenv)\s*(?:\||>)|\bdict\(\s*os\.environ\s*\)|\bos\.environ\.(?:copy|items)\(\)|\bJSON\.stringify\(\s*process\.env\s*\)|\{\s*\.\.\.process\.env\s*\}|\bGet-ChildItem\s+env:` +
		// The whole environment put in a request's payload.
		// (A child process's env={**os.environ} is no send.)
		`|\b(?:json|data|body|payload|params)["']?\s*[=:]\s*(?:dict\(\s*|\{\s*\*\*)?(?:os\.environ|process\.env)\s*[,)}\]]|\bjson\.dumps\(\s*os\.environ\b|\bJSON\.stringify\(\s*\{[^}\n]*\bprocess\.env\s*[,}]|\bObject\.(?:entries|assign)\(\s*(?:\{\}\s*,\s*)?process\.env\s*\)`)
	// envGrepRE is the environment printed through a search for the
	// variables a pattern names (env | grep -i _proxy), and the pattern.
	envGrepRE = regexp.MustCompile(`(?i)\b(?:env|printenv)\s*\|\s*(?:grep|egrep|rg)\s+(?:-\w+\s+)*(?:-e\s+)?("[^"\n]*"|'[^'\n]*'|[^\s|;&]+)`)
	// secretVarWordRE is a word of a pattern that picks secrets out of
	// the environment.
	secretVarWordRE = regexp.MustCompile(`(?i)key|token|secret|pass|pwd|cred|auth|session|cookie|aws|azure|gcp|google|github|gh_|api|private|seed|mnemonic|wallet|\.|\*|\\w|\[`)
	// fileReadRE is a command or call that reads a file's contents, as
	// opposed to loading it into the environment (source, dotenv) or
	// copying a template over it.
	fileReadRE = mustGate(`(?i)(?:^|[\s;&|("'` + "`" + `$])(?:cat|less|more|head|tail|base64|xxd|od|strings|gzip|tar|zip|7z|gpg|openssl\s+base64|type|Get-Content|gc)\s|(?:^|[\s(])<\s*["']?[~$/.]|@["']?[~$/.]|\bopen\s*\(|\bread_(?:text|bytes)\s*\(|\breadFile(?:Sync)?\s*\(|\bBun\.file\s*\(|\bDeno\.read(?:Text)?File(?:Sync)?\s*\(|\bfs\.read|\bFile\.(?:read|open)|\bfile_get_contents\s*\(|\bfopen\s*\(|\bfor\s+\w+\s+in\b|\bfor\s*\(\s*(?:const|let|var)\s+\w+\s+of\b|\bshutil\.(?:copy|make_archive)|\bgh\s+gist\s+create\b|\b(?:scp|rsync|cp)\s+(?:-\w+\s+)*["']?[~$/.]|\bsqlite3\s+["']?[~$/.]|\bcopyFile(?:Sync)?\s*\(|\bCopy-Item\s|\bcreateReadStream\s*\(|(?:^|\s)(?:-T|--upload-file)\s+["']?[~$/.]|\bsqlite3\.connect\s*\(|\b(?:mutt|neomutt|mailx?)\b[^\n]*\s-a\s+["']?[~$/.]|--attach(?:ment)?[=\s]+@?["']?[~$/.]|\b(?:upload|share)\s+(?:-\S+\s+|[\w.-]+\s+)?["']?[~$/.]|` + browserTableRE)
	// sendRE is a command or call that sends data over the network (not
	// one that only fetches).
	sendRE = mustGate(`(?i)\bcurl\b[^\n]*?(?:\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file|--json)\b|-X\s*(?:POST|PUT)\b)|\bwget\b[^\n]*--(?:post|body)-(?:file|data)\b|(?:^|[\s|;&(])(?:nc|ncat|netcat|socat|telnet)\s+(?:-\w+\s+)*[\w.-]+\s+\d+|/dev/(?:tcp|udp)/|\bscp\s+[^\n]*\s[\w.-]+@?[\w.-]+:|\b(?:requests|httpx|session|client|aiohttp)\.(?:post|put)\s*\(|\burllib\.request\.urlopen\([^)\n]*data\s*=|\bfetch\([^)\n]*\{[^}]*method:\s*["'](?:POST|PUT)|\b(?:Invoke-RestMethod|Invoke-WebRequest|irm|iwr)\b[^\n]*-(?:Method\s+(?:Post|Put)|Body|InFile)\b|\b(?:sendmail|mailx?\s+-s)\b` +
		"|(?:^|[\\s;&|(])(?:dig|nslookup|host|drill)\\s+(?:[+-]\\S+\\s+)*[\"']?(?:[\\w.-]*\\$\\(|`|\\$\\{?\\w+\\}?\\.[\\w-]+\\.)" +
		`|\bopenssl\s+s_client\b[^\n]*\s-connect\s|\bssh\s+(?:-\S+\s+)*[\w.-]+@[\w.-]+\s+["'](?:cat|tee|dd)\b[^"'\n]*>` +
		`|\bgh\s+gist\s+(?:create|edit)\b|\bgh\s+(?:issue|pr)\s+(?:create|comment)\b[^\n]*\s(?:-R|--repo)[=\s]|\b(?:axios|got|ky|superagent|needle|http|\$)\.(?:post|put|patch|postform)\s*\(|\bsendBeacon\s*\(` +
		// Any client's post to an address written out (a session, an
		// async client held in a short name), and data that xargs puts
		// in a request's address or a looked-up name.
		`|\.(?:post|put|patch)\s*\(\s*f?["'` + "`" + `]https?://|\bxargs\b[^\n]*\b(?:curl|wget|dig|nslookup|host|drill)\b[^\n]*\{\}` +
		// A command's own upload of a file (acme file upload ./x, gh
		// release upload v1 ./y).
		`|\b[\w-]+\s+(?:[\w-]+\s+){0,2}(?:upload|share)\s+(?:-\S+\s+|[\w.-]+\s+)?["']?[~$/.][^\s"']*` +
		// Mail, and the other ways out: a cloud copy, FTP, a raw socket,
		// a name looked up that carries the data.
		`|\bsmtplib\.SMTP(?:_SSL)?\s*\(|(?:^|[\s;@(=!])(?:mb_send_)?mail\s*\(\s*(?:\$\w+|["'][^"'\n]*@)|\bNet::SMTP\b|\bTransport\.send\s*\(|\.send_message\s*\(|\bsendMail\s*\(|\b(?:mutt|neomutt)\b[^\n]*\s-a\s|\bswaks\b[^\n]*--(?:to|attach)\b|\bSend-MailMessage\b|\byagmail\.SMTP\b|\.emails?\.send\s*\(|--mail-rcpt\b` +
		`|\.storbinary\s*\(|\bsftp\.put\s*\(|\.sendall\s*\(` +
		// A request whose address carries a command's output.
		`|\b(?:curl|wget)\b[^\n]*https?://[^\s"'` + "`" + `]*\$\(` +
		`|\bsocket\.(?:gethostbyname|getaddrinfo)\s*\(\s*(?:f["'][^"'\n]*\{|[^)\n]*\+)|\bdns\.resolver\.(?:resolve|query)\s*\(\s*(?:f["'][^"'\n]*\{|[^)\n]*\+)|\bdns\.(?:lookup|resolve\w*)\s*\(\s*(?:` + "`" + `[^` + "`" + `\n]*\$\{|[^)\n]*\+)`)
	// imperativeReadRE is a sentence that tells the model (or says the
	// skill will) read or gather: the verb leads the sentence or list
	// item, or follows the model, the skill, a modal or "to". A sentence
	// that only names a store ("reads of ~/.ssh can be disguised") is
	// not one.
	imperativeReadRE = mustGate(`(?i)(?:^(?:[\s>*_#|-]|\d+[.)])*(?:\*\*[^*\n]{1,60}\*\*:?\s*)?|\b(?:then|also|first|next|finally|please|now|and|so|to|you|agent|assistant|claude|model|skill|it|must|should|will|shall)\s+|^\s*[^;:\s][^;:\n]{2,80}[,;:]\s+|\bby\s+)(?:` + readVerbs + `)\b`)
	// broadReadRE is a sentence that tells the model to touch a store with
	// a verb that need not read it (check, inspect, verify): a read when
	// the file also hands what it found over (handOverRE), as a harvest
	// dressed as an audit does.
	broadReadRE = mustGate(`(?i)(?:^(?:[\s>*_#|-]|\d+[.)])*(?:\*\*[^*\n]{1,60}\*\*:?\s*)?|\b(?:then|also|first|next|finally|please|now|and|to|you|agent|assistant|claude|model|skill|it|must|should|will|shall)\s+)(?:check|checks|inspect|inspects|scan|scans|verify|verifies|review|reviews|analy[sz]e|analy[sz]es|examine|examines|access|accesses|locate|locates|find|finds|search|searches|audit|audits|validate|validates|test|tests|enumerate|enumerates|catalog|catalogs|parse|parses|assess|assesses|evaluate|evaluates|look\s+(?:at|in|into|for|through)|looks\s+(?:at|in|into|for|through)|go\s+through|goes\s+through|back\s+up|backs\s+up|walk|walks|sweep|sweeps|crawl|crawls)\b`)
	// handOverRE is a sentence that gives what was read to someone other
	// than the user: "share them with the support desk", "include their
	// full contents in the report you upload".
	handOverRE = mustGate(`(?i)\b(?:share|shares|send|sends|forward|forwards|upload|uploads|post|posts|transmit|transmits|e-?mail|e-?mails|mail|mails|paste|pastes|submit|submits|relay|relays|report|reports|hand|hands|pass|passes|deliver|delivers|sync|syncs)\s+(?:back\s+)?(?:it|them|these|those|everything|all\s+of\s+(?:it|them)|what\s+(?:you|it)\s+(?:find|found|read|collect(?:ed)?|gather(?:ed)?|retrieve[sd]?|extract(?:ed)?)|(?:the|their|its|all|each|every)\s+(?:(?:full|complete|entire|raw|file'?s?|key'?s?|resulting|merged|combined|joined|packed|zipped|bundled|self-contained)\s+)*(?:contents?|values?|keys?|credentials?|tokens?|secrets?|passwords?|files?|phrases?|output|results?|response|parts?|chunks?|pieces?|halves|half|fragments?|segments?|dump|copies))\b[^.\n]{0,80}?\b(?:with|to|into)\s+(?:the\s+|your\s+)?(\w+)` +
		`|\binclude\s+(?:their|its|the|all|each|every)\s+(?:(?:full|complete|entire|raw)\s+)?contents?\b[^.\n]{0,60}?\b(?:upload|send|post|submit|share|e-?mail)`)
	// madeToHoldREs are hand-overs that do not name the recipient by a
	// word after "to", as handOverRE's do: a thing made to hold what was
	// read (a gist, a ticket, a comment, an archive), or a request whose
	// address carries it. Each is gated by its own words, which most prose
	// holds none of.
	madeToHoldREs = []gatedRE{
		// What was read, packed or exported, sent to an address written
		// out: "email the archive as an attachment to desk@…", "upload
		// the exported file to https://…".
		mustGate(`(?i)\b(?:send|sends|forward|forwards|upload|uploads|post|posts|e-?mail|e-?mails|mail|mails|share|shares|submit|submits|attach|attaches)\s+(?:the|that|this|each|every|those|these)\s+(?:[\w-]+\s+){0,2}?(?:archive|bundle|zip|tarball|note|notes|messages?|exported\s+files?|export|backup)\b` + inSentence + `{0,80}?\b(?:to|with|at)\s+` + dest),
		// What was gathered left as a comment where others read it: "add
		// them as a comment on https://github.com/…/issues/1".
		mustGate(`(?i)\b(?:add|adds|post|posts|put|leave|write)\s+(?:them|it|these|those|everything|all\s+of\s+(?:it|them))\s+as\s+(?:a\s+)?(?:comment|reply|message|note|post)\s+(?:on|to|in)\s+` + dest),
		// A gist, a paste, a pull request or an issue made to hold what
		// was read: "create a secret gist containing those tokens".
		mustGate(`(?i)\b(?:create|creates|make|makes|publish|publishes|open|opens|file|files|submit|submits)\s+(?:a\s+|an\s+)?(?:[\w-]+\s+){0,2}?(?:gist|paste|pull\s+request|issue|ticket|comment|form)\b` + inSentence + `{0,80}?\b(?:containing|holding|including|with)\s+(?:(?:copies|a\s+copy)\s+of\s+)?(?:those|these|them|all\s+of\s+them|(?:all\s+(?:of\s+)?)?the\s+above|everything\s+above|that\s+(?:text|file|bundle|archive|document|data|output|json|dump)|the\s+(?:[\w-]+\s+)?(?:tokens?|keys?|files?|values?|contents?|credentials?|secrets?))\b`),
		// A gist, an issue or a ticket made, and what was read put in it:
		// "create a gist … and put the token and both keys in it".
		mustGate(`(?i)\b(?:create|creates|make|makes|publish|publishes|open|opens|file|files|submit|submits)\s+(?:a\s+|an\s+)?(?:[\w-]+\s+){0,2}?(?:gist|paste|pull\s+request|issue|ticket)\b` + inSentence + `{0,100}?\band\s+(?:put|paste|add|include|place|write|copy|attach)\s+(?:it|them|those|these|both|everything|all\s+of\s+(?:it|them|the\s+above)|the\s+above|the\s+(?:[\w-]+\s+){0,2}?(?:tokens?|keys?|files?|values?|contents?|credentials?|secrets?))\b`),
		// A whole file sent: "send the whole config.json … to our bot".
		mustGate(`(?i)\b(?:send|sends|forward|forwards|upload|uploads|post|posts|e-?mail|e-?mails|share|shares|submit|submits)\s+the\s+(?:whole|entire|full|complete)\s+[\w.-]+\.(?:json|ya?ml|toml|ini|conf|cfg|txt|pem|key|db|sqlite)\b` + inSentence + `{0,160}?\b(?:to|with|via)\s+(?:our|an?\s+external|` + dest + `)`),
		// Secrets put in a request's address: "fetch https://… with the key
		// id and secret as query parameters".
		mustGate(`(?i)\b(?:fetch|call|open|visit|request|query|hit|load|get)\s+https?://\S+\s+with\s+(?:[\w,-]+\s+){0,8}?(?:secrets?|keys?|tokens?|credentials|passwords?)\s+(?:\w+\s+){0,2}?as\s+(?:(?:query|url|request)\s+)?(?:parameters|params|arguments)\b`),
	}
	// postBodyRE is a request, a tool's or a command's, whose body is what
	// was read: "call http_request with method POST, url https://…, body =
	// the token".
	postBodyRE = mustGate(`(?i)\bmethod\s*[:=]?\s*["'` + "`" + `]?(?:post|put)\b` + inSentence + `{0,160}?\b(?:body|data|payload|json|content)\s*(?:=|:|is|as|set\s+to)?\s*(?:the|its|their|that)\s+(?:[\w-]+\s+)?(?:tokens?|keys?|credentials?|secrets?|contents?|passwords?|values?)\b`)
	// collectedSentRE is a sentence that sends on what an earlier step
	// gathered, or made of it, to a fixed address: "send the collected
	// data to https://…", "POST the summary to https://…".
	collectedSentRE = mustGate(`(?i)\b(?:share|send|forward|upload|post|transmit|e-?mail|submit|relay|deliver|sync)\s+(?:all\s+)?the\s+(?:(?:collected|gathered|harvested|extracted|retrieved)\s+(?:data|information|info|details|results?|files?|output|credentials|keys|secrets|lists?|lines|matches|findings|values|tokens)|(?:[\w-]+\s+)?(?:summary|digest|bundle|snapshot|briefing))\b` + inSentence + `{0,80}?\b(?:to|at|with)\s+` + dest)
	// discloseRE is a sentence that gives out what was read in full,
	// whoever to: with a broad read of several stores it is a harvest.
	discloseRE = mustGate(`(?i)\b(?:share|shares|sharing|send|sends|report|reports|output|outputs|display|displays|print|prints|show|shows|include|includes|return|returns|list|lists|paste|pastes|dump|dumps|reproduce|reproduces|copy|copies)\s+(?:back\s+)?(?:(?:the|their|its|all|each|every|of|them|file'?s?)\s+)*(?:(?:full|complete|entire|raw|exact|verbatim|unredacted|unmasked)\s+)+(?:contents?|text|values?|keys?|credentials?|secrets?|tokens?|passwords?)\b`)
	// notHarvestRE is what makes a sentence describe, forbid or defend
	// against a harvest rather than ask for one; a sentence that says when
	// the skill is used ("Use when a user … shares it over chat")
	// describes the user's situation.
	notHarvestRE = mustGate(`(?i)\b(?:not|never|no|don'?t|dont|doesn'?t|isn'?t|aren'?t|won'?t|shouldn'?t|mustn'?t|cannot|can'?t|avoid|avoids|exclude|excludes|excluding|prevent|prevents|block|blocks|deny|denies|refuse|refuses|reject|detect|detects|detecting|detection|flag|flags|warn|warns|beware|attack|attacks|attacker|attackers|malicious|malware|exfiltration|injection|vulnerab\w*|threat|threats|stealer|steal|steals|audit\s+for|gitignore|\.gitignore|permissions?|chmod|dangerous|suspicious|red\s+flags?|exploit\w*|compromised?)\b|\b(?:that|which|who)\s+(?:\w+\s+)?(?:reads?|sends?|posts?|uploads?|exfiltrates?|steals?|leaks?|collects?|harvests?|asks?|tells?|instructs?)\b|^\W*(?:use|invoke)\s+(?:this\s+(?:skill\s+)?|it\s+)?when\b`)

	// storeWords and sendWords gate the expressions: a line holding none
	// of them is not read by them.
	storeWords = newWordSet(".ossutilconfig", ".aliyun", ".tccli", ".cos.conf", ".obsutilconfig", ".huaweicloud", ".oci", "doctl", "hcloud", "yandex-cloud", ".ssh", "id_", "ssh private", "private ssh", "ssh keys", ".aws", ".azure", "gcloud", "application_default", ".kube", ".docker", ".npmrc", ".pypirc", ".gem", ".cargo", "credentials", "netrc", "hosts.yml", ".gnupg", "password-store", "login data", "logins.json", "key3.db", "key4.db", "cookies", "browser", "chrome", "firefox", "brave", "edge", "keychain", "wallet", "seed phrase", "recovery phrase", "mnemonic", "keystore", "/.secret", "/secrets", "/.token", "/tokens", "/.passw", "/passw", "/.api", "/api_key", "/api-key", ".env", "_history", "mcp", "/etc/", "solana", ".ethereum", ".electrum", ".bitcoin", "exodus", "metamask", "phantom", "169.254", "meta-data", "computemetadata", "metadata", "imds", "fd00:ec2", "web data", "local state", "binarycookies", ".mozilla", "moz_cookies", "from logins", "from credit_cards", "cookie3", "pycookiecheat", ".openclaw", ".clawdbot", ".moltbot", ".codex", ".claude", ".gemini", "auth-profiles", "silently", "secretly", "quietly", "covertly", "background", "without telling", "without asking", "without notifying", "without informing", "soul.md", "identity.md", "memory.md", "user.md", "session", "conversation", "chat ", "environment variable", "env var", "entire environment", "whole environment", "full environment", "shell environment", "variable in the", "variables in the", "variables of the", "variables from the", "`env`", "`printenv`", "private key", "password manager", "://settings/passwords", "://passwords", "about:logins", "passwords.csv", "user message", "the user told", "the user said", "the user shared", "the user typed", "the user mentioned", "they mentioned", "they shared", "they typed", "user's message", "user prompt", "user's prompt", "your message", "your prompt", "transcript_path", "find ", "grep ", "**/", "vault-token", ".terraform.d", "secure-shell", "secure shell", "credentials file", "token cache", "application default", "credential store", "hosts file", "exodus.wallet", "electrum", "nkbihfbeogaeaoehlefnkodbefgpgknn", "bfnaelmomeimhlpmgjnjophhpkkoljpa", "hnfanknocfeofbddgcijnmhnfnkdnaad", "egjidjbpglichdcondbcbdnbeeppgdph", "aws folder", "aws directory", ".kube folder", ".kube directory", "chat.db", "db.sqlite", "chatstorage", "msgstore", "bitwarden", "1password", "lastpass", "keepass", "dashlane", "/environ", "leveldb", "tdata", "keyrings", "filezilla", "github-copilot", ".vnc", ".s3cfg", ".boto", ".pgpass", ".my.cnf", ".databrickscfg", "rclone", ".config/", ".fly/", ".vercel", ".wrangler", ".netlify", ".kdbx", ".properties", ".jks", ".keystore")
	netWords   = newWordSet("upload", "share", "gh issue", "gh pr", "curl", "wget", "nc ", "ncat", "netcat", "socat", "telnet", "/dev/tcp", "/dev/udp", "scp", "post", "put", "urlopen", "fetch(", "invoke-", "irm", "iwr", "mail", "dig ", "nslookup", "host ", "drill ", "gist", "sendbeacon", "smtp", "send_message", "yagmail", "emails.send", "email.send", "copy-item", "mutt", "swaks", "mail-rcpt", "storbinary", "sftp", "sendall", "gethostbyname", "getaddrinfo", "dns.", "s_client", "ssh ")
	envWords   = newWordSet("env", "set)", "set ")
)

// dottedRE finds addresses and dotted names, whose words
// (exploit.example.com) say nothing of what the text is.
var dottedRE = regexp.MustCompile(`\S*\w\.\w\S*`)

// exampleLeadRE finds the prose before a code block that presents it as
// an attack to recognise, as security skills do ("an attacker's payload:",
// "dangerous patterns:").
var exampleLeadRE = mustGate(`(?i)\b(?:attack\w*|malicious|malware|exfiltrat\w*|dangerous|suspicious|red\s+flags?|exploit\w*|vulnerab\w*|compromised?|threat\w*|stealer|steal\w*|insecure|anti-?patterns?|never\s+do)\b`)

// exampleBlocks reports, for each code block, whether the prose presents it
// as an attack to recognise; one more entry, false, stands for a script.
//
// The front matter is not read for it, nor the sections before the
// block's own: a skill that calls itself an attack fixture, or its purpose
// "attack detection", under its title still runs the blocks of its "Setup"
// section.
func exampleBlocks(raw, prose string, blocks []codeBlock) []bool {
	example := make([]bool, len(blocks)+1)
	body := frontMatterEnd(raw)
	for i, b := range blocks {
		from := sectionStart(prose, b.start, max(b.start-400, body))
		example[i] = (exampleLeadRE.MatchString(dottedRE.ReplaceAllString(prose[min(from, b.start):b.start], " ")) ||
			exampleLeadRE.MatchString(headingsAbove(prose, b.start))) &&
			!runLead(prose, b.start) && !ownScriptRunRE.MatchString(raw[b.start:b.end])
	}
	return example
}

// ownScriptRunRE is a command that runs a script of the skill's own
// (bash scripts/purge.sh): a block that runs one is a step of the
// skill's procedure, whatever the prose around it says, not an attack
// shown to be recognised.
var ownScriptRunRE = regexp.MustCompile(`(?m)^\s*(?:\$\s+)?(?:(?:(?:ba|z)?sh|python3?|node|bun|deno|ruby|perl|pwsh|uv\s+run)\s+(?:\./)?|\./)scripts/[\w./-]+`)

// runVerbRE is a verb that tells the agent to run what follows.
var runVerbRE = regexp.MustCompile(`(?i)\b(?:run|execute|exec|paste|invoke|launch|enter|type|exfiltrate|send|upload|post)\b`)

// runLead reports whether the sentence that leads into the code block at
// pos tells the agent to run it ("Run:", "Execute the following"): an
// order to run is no example, whatever the words around it say of attacks
// or threats. Otherwise a harvest need only sit under "## Threat
// detection" to pass as one.
func runLead(prose string, pos int) bool {
	// pos is where the block's body starts: the lead ends above its fence.
	line := strings.LastIndexByte(prose[:max(pos-1, 0)], '\n') + 1
	if fence := strings.TrimSpace(prose[line:pos]); strings.HasPrefix(fence, "```") || strings.HasPrefix(fence, "~~~") {
		pos = line
	}
	end := len(strings.TrimRight(prose[:pos], " \t\r\n"))
	start, _ := sentenceAt(prose, max(end-1, 0))
	lead := prose[start:end]
	for _, m := range runVerbRE.FindAllStringIndex(lead, -1) {
		if !statedAt(lead, m[0]) && !deniedAt(lead, m[0]) {
			return true
		}
	}
	return false
}

// scanHarvest reports a file that harvests secrets, or reads one and sends
// it over the network. code is the text commands are read from (the whole
// file: a Markdown file's code blocks and inline code are what the model
// runs); prose, for Markdown, the text with code blocks blanked, read
// sentence by sentence for instructions to read stores.
func scanHarvest(fs *findings, raw, prose string, blocks []codeBlock, examples func() []bool) {
	lower := strings.ToLower(raw)
	scanProseHarvests(fs, raw, lower, prose, blocks, examples) // harvest_prose.go
	scanGatheredLinks(fs, raw, lower, blocks, examples)        // harvest_link.go
	// A walk of the home folder that keeps key files by their names
	// (os.walk(home) and n.endswith(".pem")) searches it for keys: what it
	// opens after is read from a store.
	walkAt := -1
	if containsAny(lower, []string{"walk", "rglob", "homedir"}) {
		if m := homeWalkRE.FindStringIndex(raw); m != nil && keyFileFilterRE.MatchString(raw) {
			walkAt = m[0]
		}
	}
	if walkAt < 0 && !storeWords.in(lower) && !envWords.in(lower) && !secretCmdWords.in(lower) && !secretVarWords.in(lower) && !captureWords.in(lower) {
		// A path spelt in pieces names its store only once joined.
		if joined := strings.ToLower(unhideLiterals(raw)); joined == lower || !storeWords.in(joined) {
			return
		}
	}
	// blockAt is the code block holding pos: -1 for prose, len(blocks)
	// for a script, whose every line is code.
	blockAt := func(pos int) int {
		if i := blockIndex(blocks, pos); i >= 0 {
			return i
		}
		if fs.kind == kindCode {
			return len(blocks)
		}
		return -1
	}
	example := examples()
	indented := indentedCode(raw, prose, fs.kind)
	// Whether the prose hands over or gives out in full what it read is
	// asked of the whole prose, and only of a file that names a store.
	handOver, broadKnown, broadValue := -2, false, false
	handOverAt := func() int {
		if handOver == -2 {
			handOver = handsOver(prose)
		}
		return handOver
	}
	broad := func() bool {
		if !broadKnown {
			broadKnown, broadValue = true, handOverAt() >= 0 || discloses(prose)
		}
		return broadValue
	}
	kinds := map[string]bool{}
	firstRead, firstSend, firstDump := -1, -1, -1
	childChecks := 0
	// What a read, a dump of the environment or a capture writes to a
	// file is sent when a later line sends that file (curl
	// --upload-file, a copy to a bucket); captureSent is where the first
	// capture leaves, on its own line or through its file.
	var written []writtenFile
	captureSent := -1
	// Credentials picked out of files by their names (grep DB_PASS) are
	// printed as a command prints one: sent when what was printed reaches
	// a request through a pipe, a file or a name, outside a header.
	pickedSent := -1
	picked := map[string]bool{}
	sweep, storeHand := -1, -1
	// Each line that sends, for whether they all call the services whose
	// keys the file names (ownServiceSends); past maxSendLines, not all do.
	var sendLines []string
	noteSend := func(at int, line string) {
		if sendsHere(callExtent(raw, at, line)) && !namesStore(line) {
			return // a local server called, apart from any read
		}
		if firstSend < 0 {
			firstSend = at
		}
		if len(sendLines) <= maxSendLines {
			sendLines = append(sendLines, line)
		}
	}
	fl := newFlow()
	fl.returnedKeys(raw)
	pathNames, readViaName := map[string][]string{}, false
	ownFlow := -1
	// A credential printed by a command (gh auth token, a keychain's
	// password) is how a client logs in to its own service: it is sent
	// away only when what it printed goes into a request outside a header
	// (through a name, a file it was written to, or a pipe).
	storeRead, cmdSent := false, false
	var cmdFiles []string
	// A secret key exported to a file, a pipe or a name is sent when that
	// line sends, or a later one sends the file or what the name holds.
	exportSent, exportAt := -1, -1
	var exportFiles []string
	// Line by line: a line of code that reads a store is a read; a line of
	// prose is one when its sentence asks to read and neither negates nor
	// describes.
	for start := 0; start < len(raw); {
		end := lineEnd(raw, start)
		block := blockAt(start)
		// A command continued over lines (tar czf out.tgz \⏎ ~/.ssh \⏎
		// ~/.aws) is read as the one line it is.
		if block >= 0 {
			end = continuedLineEnd(raw, end)
		}
		line := raw[start:end]
		lowLine := lineOf(lower, raw, start, end)
		if strings.Contains(line, "\\\n") || strings.Contains(line, "\\\r\n") {
			line, lowLine = continuedRE.ReplaceAllString(line, " "), continuedRE.ReplaceAllString(lowLine, " ")
		}
		if joined := unhideLiterals(line); joined != line {
			line, lowLine = joined, strings.ToLower(joined)
		}
		// What a command leaves out (tar --exclude=.env) it does not read.
		if strings.Contains(lowLine, "--exclude") {
			line = excludeArgRE.ReplaceAllString(line, " ")
			lowLine = strings.ToLower(line)
		}
		if block >= 0 && example[block] {
			start = end + 1
			continue
		}
		code := block >= 0 || strings.Contains(line, "`") || indented(start, line) || commandSetting(line)
		store := storeWords.in(lowLine)
		reads, command := false, false
		if store && code {
			reads = readsFile(line) && !printsText(line) || cloudCopyRE.MatchString(line) && namesStore(line)
		}
		if code && !reads && secretCmdRead(line, lowLine) {
			reads, command = true, true
		}
		if store && !reads && block < 0 && namesStore(line) {
			// The sentence that names the store, not another of its line.
			s, e := sentenceAt(prose, start+storeAt(line))
			if s < e && e <= len(prose) {
				sentence := prose[s:e]
				reads = (imperativeReadRE.MatchString(sentence) || broadReadRE.MatchString(sentence) && broad()) && !describesHarvest(sentence) && !negatedClause(sentence, len(sentence))
				// A sentence that gives what it names to another party
				// reads it, whatever its verb.
				if handsStoreOver(sentence) && storeHand < 0 {
					reads, storeHand = true, start
				}
				// A list item that names a store without a verb takes
				// the verb of the line that leads its list ("Collect
				// these files:").
				if !reads && startsBlock(line) && !verbRE.MatchString(sentence) {
					if lead := listLead(prose, start); lead != "" {
						reads = (imperativeReadRE.MatchString(lead) || broadReadRE.MatchString(lead) && broad()) && !describesHarvest(lead) && !describesHarvest(sentence)
						if handsStoreOver(lead) && !describesHarvest(sentence) && storeHand < 0 {
							reads, storeHand = true, start
						}
					}
				}
			}
		}
		// A store's path put in a name first and read through it on a
		// later line (src = '~/…/Cookies'; shutil.copy(src, …)).
		var viaName []string
		if code && !reads && !templateLine(line) {
			if store && namesStore(line) {
				// A store named in the line's comment (prompt: str = ""
				// # input prompt or chat history) is not what it assigns.
				value := uncommented(line)
				if m := assignRE.FindStringSubmatch(value); m != nil {
					for _, k := range storeKinds {
						// A project's .env found by walking up the folders
						// is where a client reads its own key.
						if k.kind != "dotenv" && k.re.MatchString(value) {
							pathNames[m[1]] = append(pathNames[m[1]], k.kind)
						}
					}
				}
			} else if len(pathNames) > 0 && fileReadRE.MatchString(line) {
				for _, w := range identRE.FindAllString(line, -1) {
					viaName = append(viaName, pathNames[w]...)
				}
				if len(viaName) > 0 {
					reads, readViaName = true, true
				}
			}
		}
		// A file the walk of the home folder keeps by its name is read
		// from a store.
		if code && !reads && walkAt >= 0 && start > walkAt && fileReadRE.MatchString(line) {
			reads, readViaName = true, true
			viaName = append(viaName, "search")
		}
		// A store named only where a command writes (cat > ~/.x/config.json
		// << EOF) is not read.
		readLine := line
		if strings.Contains(line, ">") {
			readLine = redirectTargetRE.ReplaceAllString(line, " ")
		}
		strongVia := false
		for _, k := range viaName {
			strongVia = strongVia || !ownStores[k]
		}
		if reads && code && fs.codeReadAt == 0 && !templateLine(line) && (command || strongVia || sharedStoreLine(readLine)) {
			fs.codeReadAt = start + 1
		}
		if reads && !code && fs.proseReadAt == 0 && sharedStoreLine(readLine) {
			fs.proseReadAt = start + 1
		}
		if reads && !command {
			storeRead = true
		}
		if reads && command && code {
			if fl.lineSends(line, lowLine) {
				cmdSent = true
			}
			cmdFiles = append(cmdFiles, redirectTargets(line)...)
		}
		if reads && (!templateLine(line) || !code && namesStore(templateNameRE.ReplaceAllString(line, " "))) {
			lineKinds := map[string]bool{}
			for _, k := range viaName {
				lineKinds[k] = true
			}
			if command {
				lineKinds["command"] = true
			}
			for _, k := range storeKinds {
				if namesStoreKind(readLine, k.re) {
					lineKinds[k.kind] = true
				}
			}
			own := len(lineKinds) > 0
			for k := range lineKinds {
				kinds[k] = true
				own = own && ownStores[k]
			}
			if len(lineKinds) > 0 && !own && firstRead < 0 {
				firstRead = start
			}
			if code {
				fl.read(line)
				// What the agent's own files hold counts as sent only
				// when it is: on the line that reads it, or through a
				// name that line assigns.
				if own {
					fl.readOwn(line)
					if ownFlow < 0 && fl.lineSends(line, lowLine) {
						ownFlow = start
					}
				}
			}
			if sweep < 0 {
				if m := sweepRE.FindStringIndex(line); m != nil {
					sweep = start + m[0]
				}
			}
		}
		if code {
			if !reads {
				fl.carry(line)
			}
			if fl.send(line, lowLine, start) {
				// A request whose method comes lines after its call
				// goes where the call's line says.
				if fl.callAt >= 0 && fl.callAt < start {
					noteSend(start, raw[fl.callAt:end])
				} else {
					noteSend(start, line)
				}
			}
			if !cmdSent && !reads && (fl.sendsTainted(line, lowLine) || containsAny(line, cmdFiles) && fl.lineSends(line, lowLine)) {
				cmdSent = true
			}
			if ownFlow < 0 && fl.sendsOwn(line, lowLine) {
				ownFlow = start
			}
			if fl.lineSends(line, lowLine) {
				noteSend(start, line)
			}
			if reads && !templateLine(line) && cloudCopyRE.MatchString(line) {
				noteSend(start, line)
			}
		}
		if code && exportSent < 0 && strings.Contains(lowLine, "export-secret") && exportSecretRE.MatchString(argvLine(line)) {
			exportAt = start
			if fl.lineSends(line, lowLine) {
				exportSent = start
			}
			exportFiles = append(exportFiles, redirectTargets(line)...)
			fl.read(line)
		} else if code && exportSent < 0 && exportAt >= 0 && (containsAny(line, exportFiles) && fl.lineSends(line, lowLine) || fl.sendsTainted(line, lowLine)) {
			exportSent = start
		}
		dump := code && envWords.in(lowLine) && envDumpRE.MatchString(wordGroupRE.ReplaceAllString(line, " ")) && !namedVarsOnly(line)
		if dump && childChecks < maxChildEnvChecks {
			// Each check reads the whole text: a few per text bound
			// the work; past them, a copy counts as a dump.
			childChecks++
			dump = !childEnvOnly(raw, line)
		}
		if dump {
			fl.readLoopNames(line)
		}
		if dump && firstDump < 0 {
			firstDump = start
			if fs.codeReadAt == 0 {
				fs.codeReadAt = start + 1
			}
		}
		capture := code && captureWords.in(lowLine) && captureRE.MatchString(line)
		if capture && captureSent < 0 && fl.lineSends(line, lowLine) {
			captureSent = start // piped or sent on its own line
		}
		pick := code && !reads && secretSearchWords.in(lowLine) && credGrepRE.MatchString(line)
		if pick {
			if pickedSent < 0 && fl.lineSends(line, lowLine) {
				pickedSent = start
			}
			if a := assignRE.FindStringSubmatch(line); a != nil {
				picked[a[1]] = true
			}
		} else if code && pickedSent < 0 && len(picked) > 0 && fl.lineSends(line, lowLine) && namesAny(headerArgRE.ReplaceAllString(line, " "), picked) {
			pickedSent = start
		}
		// A file is sent by a later line that names it, or by the rest
		// of the line that wrote it (… > /tmp/env.txt && aws s3 cp
		// /tmp/env.txt s3://…).
		var files []writtenFile
		if (capture || dump || pick || reads && code) && len(written) < maxWritten {
			files = writtenFiles(line, capture, pick)
			written = append(written, files...)
		}
		if code && len(written) > 0 && (fl.lineSends(line, lowLine) || cloudCopyRE.MatchString(line)) {
			for i, w := range written {
				if n := strings.Count(line, w.path); n == 0 || n == 1 && i >= len(written)-len(files) {
					continue
				}
				switch {
				case w.captured && captureSent < 0:
					captureSent = start
				case w.picked && pickedSent < 0:
					pickedSent = start
				case !w.captured && !w.picked:
					noteSend(start, line)
				}
			}
		}
		start = end + 1
	}
	envSecrets := secretEnvServices(raw, blocks, example, fs.kind)
	lineAt := func(pos int) (int, int) {
		e := strings.IndexByte(raw[pos:], '\n')
		if e < 0 {
			return pos, len(raw)
		}
		return pos, pos + e
	}
	switch {
	case sweep >= 0:
		s, e := lineAt(sweep)
		fs.add(RuleSecretPath, SeverityWithhold, s, e, "an instruction to read every file of a folder of keys or credentials")
	case len(kinds) >= minStoreKinds:
		s, e := lineAt(firstRead)
		fs.add(RuleSecretPath, SeverityWithhold, s, e, "an instruction to read many stores of credentials at once")
	case firstRead >= 0 && firstSend >= 0 && (storeRead || cmdSent) && (readViaName || codeReads(raw, blocks, example, fs.kind, indented)) && !(onlyDotenv(kinds) && ownServiceSends(sendLines, raw)):
		s, e := lineAt(firstSend)
		fs.add(RuleExfiltrate, SeverityWithhold, s, e, "commands that read a secret file and send data over the network")
	case firstRead >= 0 && handOverAt() >= 0:
		s, e := lineAt(handOver)
		fs.add(RuleExfiltrate, SeverityWithhold, s, e, "an instruction to read a secret and hand it over")
	case storeHand >= 0:
		s, e := lineAt(storeHand)
		fs.add(RuleExfiltrate, SeverityWithhold, s, e, "an instruction to give a store of credentials to another party")
	case exportSent >= 0:
		s, e := lineAt(exportSent)
		fs.add(RuleExfiltrate, SeverityWithhold, s, e, "commands that export a secret key and send it over the network")
	case ownFlow >= 0:
		s, e := lineAt(ownFlow)
		fs.add(RuleExfiltrate, SeverityWithhold, s, e, "code that sends an agent's own identity, login or session files over the network")
	case pickedSent >= 0:
		s, e := lineAt(pickedSent)
		fs.add(RuleExfiltrate, SeverityWithhold, s, e, "commands that pick credentials out of files and send them over the network")
	case captureSent >= 0:
		s, e := lineAt(captureSent)
		fs.add(RuleExfiltrate, SeverityWithhold, s, e, "commands that capture the user's screen, camera, microphone, keystrokes or clipboard and send it over the network")
	case fl.walletSent >= 0:
		s, e := lineAt(fl.walletSent)
		fs.add(RuleExfiltrate, SeverityWithhold, s, e, "a wallet's private key or recovery phrase sent over the network")
	case fl.keyAway >= 0:
		s, e := lineAt(fl.keyAway)
		fs.add(RuleExfiltrate, SeverityWithhold, s, e, "a service's key sent to a host that is not the service's")
	case fl.secretToSink >= 0:
		s, e := lineAt(fl.secretToSink)
		fs.add(RuleExfiltrate, SeverityWithhold, s, e, "a secret sent to a catch-all or hidden address")
	case firstDump >= 0 && handOverAt() >= 0:
		s, e := lineAt(firstDump)
		fs.add(RuleExfiltrate, SeverityWithhold, s, e, "a command that prints the environment's variables, and an instruction to hand them over")
	case firstDump >= 0 && firstSend >= 0:
		s, e := lineAt(firstDump)
		fs.add(RuleExfiltrate, SeverityWithhold, s, e, "commands that send the environment's variables over the network")
	case envSecrets >= 0 && fl.foreign:
		s, e := lineAt(envSecrets)
		fs.add(RuleExfiltrate, SeverityWithhold, s, e, "code that gathers the secrets of several services and sends to a catch-all or hidden address")
	case envSecrets >= 0:
		s, e := lineAt(envSecrets)
		fs.add(RuleSecretPath, SeverityWarn, s, e, "code that gathers the secrets of several services from the environment")
	}
}

var (
	// homeWalkRE walks the home folder (or the whole disk) file by file.
	homeWalkRE = regexp.MustCompile(`\bos\.walk\(\s*(?:home|os\.path\.expanduser\(\s*["']~["']\s*\)|str\(\s*Path\.home\(\)\s*\)|Path\.home\(\)|["']/["'])|\bPath\.home\(\)\s*\.\s*(?:rglob|walk)\s*\(|\breaddir(?:Sync)?\(\s*(?:os\.)?homedir\(\)|\bfilepath\.Walk(?:Dir)?\(\s*home\b`)
	// keyFileFilterRE keeps files by the names keys and secrets go by.
	keyFileFilterRE = regexp.MustCompile(`(?:endswith|suffix|extname|HasSuffix|fnmatch|match)\b[^\n]{0,40}?["']\*?\.(?:pem|key|p12|pfx|kdbx|ppk|keystore|asc|gpg)["']|["'](?:id_rsa|id_ed25519|id_ecdsa|\.env|credentials|wallet\.dat)["']`)
)

var (
	// captureRE runs a command or calls a library that captures what the
	// user sees, says, types or copies: the screen, the camera, the
	// microphone, keystrokes, the clipboard.
	captureRE = mustGate(`(?i)(?:^|[\s;&|("'` + "`" + `\[])(?:screencapture|imagesnap|arecord|parecord|logkeys|pbpaste|wl-paste|Get-Clipboard|scrot|gnome-screenshot|grim|xclip\s+(?:-\S+\s+)*-o\b|xsel\s+(?:-\S+\s+)*-o\b|import\s+-window\s+root|sox\s+-d|ffmpeg\b[^\n]*?-f\s+(?:avfoundation|x11grab|v4l2|dshow|gdigrab|alsa|pulse))\b|\bImageGrab\.grab\(|\bpyautogui\.screenshot\(|\bpyperclip\.paste\(|\bpynput\.keyboard\b|\bcv2\.VideoCapture\(|\bmss\(\)\.(?:shot|grab)\(`)
	// captureWords are captureRE's words, looked for in the lowered line
	// first.
	captureWords = newWordSet("screencapture", "imagesnap", "arecord", "parecord", "logkeys", "pbpaste", "wl-paste", "get-clipboard", "scrot", "gnome-screenshot", "grim", "xclip", "xsel", "import -window", "sox -d", "ffmpeg", "imagegrab", "pyautogui", "pyperclip", "pynput", "videocapture", "mss()")
	// credGrepRE is a search of files for credentials by the names they
	// go by in settings (grep -E 'DB_PASS|API_KEY' config/): it prints
	// them.
	credGrepRE = mustGate(`(?i)\b(?:grep|egrep|rg|findstr|Select-String)\b[^|\n]{0,80}?(?:\bpassw(?:or)?d|\bdb_pass|\bdatabase_url|\bapi[_-]?key|\bsecret[_-]?key|\bsecret\b|\baccess[_-]?token|\bauth[_-]?token|\bprivate[_ -]?key|\bclient[_-]?secret|aws_secret_access_key)`)
	// pathArgRE is a file named on a command line: a path with an
	// extension, from the root, the home folder or here.
	pathArgRE = regexp.MustCompile(`(?:^|[\s"'(=,\[])((?:/|~/|\$HOME/|\$\{HOME\}/|\./)[\w./-]*\.\w+)`)
)

// maxWritten bounds the files a text's reads are followed through: each
// line that sends is matched against every one, and a hostile script of
// many reads and sends must not cost their product.
const maxWritten = 64

// A writtenFile is a file a line of code wrote what it read or captured
// to.
type writtenFile struct {
	path     string
	captured bool // by a capture of the screen, camera, microphone, keys or clipboard
	picked   bool // by a search for credentials by their names
}

// writtenFiles returns the files a line writes, marked with what wrote
// them: where it redirects its output, and for a capture, the files it
// names (screencapture -x /tmp/s.png, logkeys --output /tmp/k.log),
// which is where such tools write.
func writtenFiles(line string, captured, picked bool) []writtenFile {
	var out []writtenFile
	for _, f := range redirectTargets(line) {
		out = append(out, writtenFile{path: f, captured: captured, picked: picked})
	}
	// A copy's destination holds what it copied (cp ~/.ossutilconfig
	// "$DIAG").
	for _, m := range copyTargetRE.FindAllStringSubmatch(line, 4) {
		if f := strings.Trim(m[1], "\"'"); len(f) > 2 {
			out = append(out, writtenFile{path: f, captured: captured, picked: picked})
		}
	}
	if captured {
		for _, m := range pathArgRE.FindAllStringSubmatch(line, -1) {
			out = append(out, writtenFile{path: m[1], captured: true, picked: picked})
		}
	}
	return out
}

// commandSettingRE is a setting whose value is a command a host runs: a
// hook's "command", an MCP server's, a package's install script.
var commandSettingRE = regexp.MustCompile(`^\s*["']?(?:command|cmd|run|exec|shell|script|postinstall|preinstall|install|prepare)["']?\s*[:=]\s*["'\[]`)

// commandSetting reports whether a line of prose is a setting of a
// command (JSON or YAML written out without a fence): the host runs it as
// surely as a fenced block the skill tells the agent to run.
func commandSetting(line string) bool {
	return strings.Contains(line, ":") && commandSettingRE.MatchString(line)
}

// copyTargetRE is a shell's copy of one file, and the file it writes.
var copyTargetRE = regexp.MustCompile(`(?:^|[\s;&|(])(?:cp|Copy-Item)\s+(?:-[-\w]+\s+)*(?:"[^"\n]+"|'[^'\n]+'|[^\s;&|"']+)\s+("[^"\n]+"|'[^'\n]+'|[^\s;&|)]+)`)

// redirectTargets returns the files a shell line writes.
func redirectTargets(line string) []string {
	var files []string
	for _, m := range redirectTargetRE.FindAllString(line, -1) {
		if f := strings.Trim(strings.TrimLeft(m, "<=->\t "), "\"'"); len(f) > 2 {
			files = append(files, f)
		}
	}
	return files
}

// literalJoinRE is where two string literals meet: across a + ('~/.' +
// 'ssh') or a path's / (Path.home() / '.aws' / 'credentials'), or side by
// side in a shell word ("$HOME/.s""sh").
var literalJoinRE = regexp.MustCompile(`["']\s*\+\s*["']|([\w/.~-])["']["']([\w/.~-])|["']\s*(/)\s*["']|\)\s*(/)\s*["']`)

// joinLiterals returns text with the string literals that meet joined, so
// that a path spelt in pieces reads as the path.
func joinLiterals(text string) string {
	if !strings.Contains(text, "+") && !strings.Contains(text, `""`) && !strings.Contains(text, "''") && !strings.Contains(text, " / ") {
		return text
	}
	return literalJoinRE.ReplaceAllString(text, "$1$2$3$4")
}

var (
	// encodedLiteralRE is a string literal in base64 that a line decodes
	// (base64.b64decode("…"), Buffer.from('…', 'base64'), atob("…")).
	encodedLiteralRE = regexp.MustCompile(`(["'])([A-Za-z0-9+/]{12,}={0,2})["']`)
	// reversedLiteralRE is a string literal reversed where it is used
	// ("asr_di/hss./~"[::-1], '…'.split('').reverse().join('')).
	reversedLiteralRE = regexp.MustCompile(`(["'])([^"'\n]{4,200})["']\s*(?:\[\s*::\s*-1\s*\]|\.split\(\s*["']["']\s*\)\s*\.reverse\(\)\s*\.join\(\s*["']["']\s*\))`)
)

// unhideLiterals returns a line of code with its string literals as the
// program uses them: joined where they meet, decoded from base64 where
// the line decodes them, reversed where it reverses them. A path hidden
// so reads as the path.
func unhideLiterals(line string) string {
	line = joinLiterals(line)
	if containsAny(line, []string{"b64", "base64", "Base64", "atob"}) {
		line = encodedLiteralRE.ReplaceAllStringFunc(line, func(lit string) string {
			b, err := base64.StdEncoding.DecodeString(lit[1 : len(lit)-1])
			if err != nil || !printableText(b) {
				return lit
			}
			return lit[:1] + string(b) + lit[:1]
		})
	}
	if strings.Contains(line, "::") || strings.Contains(line, "reverse") {
		line = reversedLiteralRE.ReplaceAllStringFunc(line, func(lit string) string {
			m := reversedLiteralRE.FindStringSubmatch(lit)
			r := []rune(m[2])
			slices.Reverse(r)
			return m[1] + string(r) + m[1]
		})
	}
	return line
}

// printableText reports whether b is text a reader could read: printable
// ASCII and white space.
func printableText(b []byte) bool {
	for _, c := range b {
		if (c < 0x20 || c > 0x7e) && c != '\n' && c != '\t' {
			return false
		}
	}
	return len(b) > 0
}

// verbRE finds a verb a list item may carry of its own, which then
// decides what the item does.
var verbRE = mustGate(`(?i)\b(?:` + readVerbs + `|check|checks|inspect|verify|never|avoid|do\s+not|don'?t|ignore|skip|exclude|add|set|create|write|put|configure|store|keep|rotate|delete|remove)\b`)

// listLead returns the line that leads the list holding the item at pos
// when it ends with a colon (the list's order), or "": the nearest line
// above that is not a list item, within the same paragraph or right above
// the list.
func listLead(prose string, pos int) string {
	end := pos
	for end > 0 {
		start := strings.LastIndexByte(prose[:end-1], '\n') + 1
		line := strings.TrimSpace(prose[start : end-1])
		end = start
		switch {
		case line == "":
			continue // a blank line between the lead and its list
		case startsBlock(line) && !strings.HasPrefix(line, "#"):
			continue // an earlier item of the same list
		case strings.HasSuffix(line, ":"):
			return line
		default:
			return ""
		}
	}
	return ""
}

// discloses reports whether the prose tells the model to give out what
// it read in full, in a sentence that neither negates nor describes it.
func discloses(prose string) bool {
	for _, m := range discloseRE.FindAllStringIndex(prose, 8) {
		s, e := sentenceAt(prose, m[0])
		if !describesHarvest(prose[s:e]) && !deniedAt(prose, m[0]) {
			return true
		}
	}
	return false
}

// userRecipients are who a hand-over may go to without leaving the
// session.
var userRecipients = map[string]bool{"user": true, "users": true, "requester": true, "caller": true, "you": true, "yourself": true, "terminal": true, "screen": true, "console": true, "stdout": true}

// ownStoreDestRE is where a hand-over puts what it read when that is the
// user's own file of settings, not another party: "paste the entire
// contents of the key file into your `.env` file as the value of
// GITHUB_PRIVATE_KEY".
var ownStoreDestRE = regexp.MustCompile("(?i)^(?:(?:your|the|a|an|project'?s?|local)\\s+)*[`\"']?(?:[\\w./~-]*\\.env(?:\\.[\\w-]+)?\\b|[\\w./~-]*\\.(?:json|ya?ml|toml|ini|cfg|conf|properties)\\b|(?:config(?:uration)?|settings|environment)\\s+(?:file|variables?)\\b|(?:secrets?|password)\\s+(?:manager|store|vault)\\b|keychain\\b)")

// sentOnREs are the hand-overs handsOver takes as they match: no word
// after "to" names the user in them.
var sentOnREs = append([]gatedRE{collectedSentRE, postBodyRE}, madeToHoldREs...)

// handsOver returns where the prose first tells the model to give what it
// read to someone other than the user, in a sentence that neither negates
// nor describes it, or -1.
func handsOver(prose string) int {
	for _, re := range sentOnREs {
		for _, m := range re.FindAllStringIndex(prose, 4) {
			s, e := sentenceAt(prose, m[0])
			if !describesHarvest(prose[s:e]) && !deniedAt(prose, m[0]) {
				return m[0]
			}
		}
	}
	for _, m := range handOverRE.FindAllStringSubmatchIndex(prose, 8) {
		if m[2] >= 0 && userRecipients[strings.ToLower(prose[m[2]:m[3]])] {
			continue // shown to the user, not handed over
		}
		if m[2] >= 0 && ownStoreDestRE.MatchString(prose[m[2]:min(m[2]+60, len(prose))]) {
			continue // put in the user's own .env or settings, where a client reads it
		}
		s, e := sentenceAt(prose, m[0])
		if describesHarvest(prose[s:e]) || deniedAt(prose, m[0]) {
			continue
		}
		return m[0]
	}
	return -1
}

// codeReads reports whether a line of code (not only prose) reads a store:
// a secret read in prose and a send in a code block is a setup guide's
// usual shape ("put your key in .env", then "curl -X POST").
func codeReads(raw string, blocks []codeBlock, example []bool, k kind, indented func(int, string) bool) bool {
	inExample := func(pos int) bool {
		i := blockIndex(blocks, pos)
		return i >= 0 && example[i]
	}
	// Line by line, a command continued over lines as the one line it is.
	for at, end := 0, 0; at < len(raw); at = end + 1 {
		end = lineEnd(raw, at)
		end = continuedLineEnd(raw, end)
		line := excludeArgRE.ReplaceAllString(unhideLiterals(continuedRE.ReplaceAllString(raw[at:end], " ")), " ")
		if inExample(at) || templateLine(line) {
			continue
		}
		low := strings.ToLower(line)
		if secretCmdRead(line, low) {
			return k == kindCode || len(blocks) > 0 || strings.Contains(line, "`") || indented(at, line) || commandSetting(line)
		}
		if !storeWords.in(low) || !readsFile(line) && !cloudCopyRE.MatchString(line) {
			continue
		}
		for _, s := range storeKinds {
			if s.re.MatchString(line) {
				return k == kindCode || len(blocks) > 0 || strings.Contains(line, "`") || indented(at, line) || commandSetting(line)
			}
		}
	}
	return false
}

// uncommented returns a line of code without the comment that ends it:
// from a "#" or "//" after a blank, outside quotes, on.
func uncommented(line string) string {
	for i := 1; i < len(line); i++ {
		if line[i] != '#' && !(line[i] == '/' && i+1 < len(line) && line[i+1] == '/') || !isSpace(line[i-1]) {
			continue
		}
		before := line[:i]
		if strings.Count(before, `"`)%2 == 0 && strings.Count(before, "'")%2 == 0 && strings.Count(before, "`")%2 == 0 {
			return before
		}
	}
	return line
}

// wordGroupRE is a group of bare words a regular expression alternates
// between (=~ \.(env|secret|key|token)$): no pipe from the env command.
var wordGroupRE = regexp.MustCompile(`\((?:[\w.-]+\|)+[\w.-]+\)`)

// callExtent returns a send's line, or, when the line opens a call its
// arguments carry on from (requests.post(⏎ f"http://localhost…"), the
// call up to its closing parenthesis, within 800 bytes of at.
func callExtent(raw string, at int, line string) string {
	if !strings.HasSuffix(strings.TrimRight(line, " \t\r"), "(") {
		return line
	}
	depth := 0
	for i := at; i < min(len(raw), at+800); i++ {
		switch raw[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return raw[at : i+1]
			}
		}
	}
	return line
}

// dialedHostRE finds the hosts a line of code sends to: a URL's, the one
// netcat and its kin dial, a /dev/tcp path's.
var dialedHostRE = regexp.MustCompile(`(?i)\b[a-z][\w+.-]*://(?:[^@/\s"']*@)?(\[[0-9a-f:.]+\]|[\w.-]+)|(?:^|[\s|;&(])(?:nc|ncat|netcat|socat|telnet)\s+(?:-\w+\s+)*(\[[0-9a-f:.]+\]|[\w.-]+)\s+\d+|/dev/(?:tcp|udp)/([\w.:-]+)/`)

// sendsHere reports whether every host a sending line names is this
// machine (nc -zv localhost 8001, curl -X POST http://127.0.0.1:3000/…):
// what a skill tries against its own local server stays on the machine.
// A line that names no host, or one more host, sends away.
func sendsHere(line string) bool {
	if !localSendRE.MatchString(line) {
		return false
	}
	found := dialedHostRE.FindAllStringSubmatchIndex(line, 8)
	for _, m := range found {
		host := ""
		for g := 2; g < len(m); g += 2 {
			if m[g] >= 0 {
				host = strings.Trim(line[m[g]:m[g+1]], "[]")
			}
		}
		if a, err := netip.ParseAddr(host); err == nil && !a.IsLoopback() && !a.IsUnspecified() || err != nil && !strings.EqualFold(host, "localhost") {
			return false
		}
	}
	if len(found) == 0 {
		return false
	}
	// A second host written without a scheme (curl … http://localhost
	// evil.example) is dialled too.
	rest := dialedHostRE.ReplaceAllString(line, " ")
	return !bareHostRE.MatchString(rest)
}

// bareHostRE is a host name written as an argument of its own.
var bareHostRE = regexp.MustCompile(`(?i)(?:^|[\s"'=])(?:[a-z0-9-]+\.)+(?:com|net|org|io|dev|app|xyz|sh|co|me|ru|cn|tk|top|site|online|info|biz|cloud|ai|link|live|pw|cc|to|ws|click|space)(?::\d+)?(?:/\S*)?(?:["'\s]|$)`)

// templateLine reports a line that handles a template of a secrets file
// or public keys, which hold no secret: "cp .env.example .env",
// "cat ~/.ssh/id_ed25519.pub".
func templateLine(line string) bool {
	l := strings.ToLower(line)
	if !containsAny(l, []string{".example", ".sample", ".template", ".dist", ".pub", "known_hosts", ".gitignore"}) {
		return false
	}
	return templateFileRE.MatchString(addressRE.ReplaceAllString(l, " "))
}

// addressRE is an address (https://collector.example/, ops@mail.example):
// a host under a reserved name such as .example is no template file.
var addressRE = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://[^\s"'` + "`" + `<>)]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+`)

// hostRE is a host name written without a scheme (attacker.com,
// collect.evil.io).
var hostRE = regexp.MustCompile(`(?i)\b[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|io|dev|app|xyz|site|online|cloud|example|test|invalid|co|me|info|biz|ru|cn|tk|top|cc|sh|ai|link|click)\b[^\s"'` + "`" + `<>)]*`)

// dropAddresses blanks the addresses of a sentence: the words of a host or
// a path (https://attacker.com/steal, exfil.evil.io) say nothing of what
// the sentence asks, and a harvest that named its collector so would
// read as one describing an attack.
func dropAddresses(s string) string {
	if !strings.Contains(s, ".") && !strings.Contains(s, "@") {
		return s
	}
	return hostRE.ReplaceAllString(addressRE.ReplaceAllString(s, " "), " ")
}

// describesHarvest reports a sentence that describes, forbids or defends
// against a harvest rather than asks for one, its addresses unread.
func describesHarvest(sentence string) bool {
	return notHarvestRE.MatchString(dropIntensifiers(dropAddresses(sentence)))
}

// wholeRE is a negation that asks for all of what is read, not for less:
// "do not trim", "no need to redact", "without masking".
var wholeRE = mustGate(`(?i)\b(?:do\s+not|don'?t|never|no\s+need\s+to|without)\s+(?:\w+\s+)?(?:trim|redact|truncat|mask|scrub|sanitiz|sanitis|shorten|abbreviat|omit|summari[sz]|strip|censor|obfuscat|anonymi[sz]|elid)\w*\b`)

// dropIntensifiers drops from a sentence the negations that ask for the
// whole of what it reads, which neither forbid nor describe the read.
func dropIntensifiers(s string) string {
	if !wholeRE.mayMatch(s) {
		return s
	}
	return wholeRE.ReplaceAllString(s, " ")
}

// templateNameRE is a template's or a public key's name, and the word it
// ends: what a line names beside it is read apart.
var templateNameRE = regexp.MustCompile(`(?i)\S*(?:\.(?:example|sample|template|dist|pub)\b|known_hosts)\S*`)

// templateFileRE is a file name that ends as a template's or a public
// key's does, not a host (keys.example.org) that holds the same word.
var templateFileRE = regexp.MustCompile(`\.(?:example|sample|template|dist|pub)(?:$|[\s"'` + "`" + `)\],;:|>])|known_hosts|>>\s*\.gitignore`)

// sectionStart is where the section that holds pos starts, from floor
// on: the line after the last heading above pos, or floor when none lies
// between them. Callers read no further up than floor, so the search
// stops there: a file of many blocks and no headings costs one pass.
func sectionStart(text string, pos, floor int) int {
	for end := pos; end > max(floor, 0); {
		start := strings.LastIndexByte(text[:end-1], '\n') + 1
		line := text[start:end]
		if n := len(line) - len(strings.TrimLeft(line, "#")); n > 0 && n < 7 && strings.HasPrefix(line[n:], " ") {
			return end
		}
		end = start
	}
	return max(floor, 0)
}

// frontMatterEnd is where the body of a Markdown file with YAML front
// matter starts: 0 for a file without it.
func frontMatterEnd(raw string) int {
	if !strings.HasPrefix(raw, "---\n") && !strings.HasPrefix(raw, "---\r\n") {
		return 0
	}
	for pos := strings.IndexByte(raw, '\n') + 1; pos < len(raw); {
		end := strings.IndexByte(raw[pos:], '\n')
		if end < 0 {
			return 0
		}
		if line := strings.TrimRight(raw[pos:pos+end], "\r"); line == "---" || line == "..." {
			return pos + end + 1
		}
		pos += end + 1
	}
	return 0
}

// headingsAbove returns the headings of the sections that hold pos, the
// nearest of each level: a block under "## Reverse shells" is an example
// of one.
func headingsAbove(text string, pos int) string {
	var b strings.Builder
	level := 7
	for end := pos; end > 0 && level > 1; {
		start := strings.LastIndexByte(text[:end-1], '\n') + 1
		line := text[start:end]
		if n := len(line) - len(strings.TrimLeft(line, "#")); n > 0 && n < level && strings.HasPrefix(line[n:], " ") {
			b.WriteString(line)
			level = n
		}
		end = start
		if end == 0 {
			break
		}
	}
	return b.String()
}

// secretEnvRE reads an environment variable whose name says it holds a
// secret.
var secretEnvRE = regexp.MustCompile(`(?:os\.environ(?:\.get)?\s*[\[(]\s*|os\.getenv\(\s*|process\.env\.|process\.env\[\s*|os\.(?:Getenv|LookupEnv)\(\s*|\bENV(?:\.fetch\(|\[)\s*|System\.getenv\(\s*|env::var\(\s*|Deno\.env\.get\(\s*|\$env:)["']?([A-Z][A-Z0-9]*)_[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)\b`)

// secretEnvServices returns where a code block reads the secrets of two
// services or more from the environment (a Stripe key and a Docker
// password), or -1. A client reads its own service's key, or two of them
// (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY); gathering several
// services' is a harvest's first step.
func secretEnvServices(raw string, blocks []codeBlock, example []bool, k kind) int {
	spans := blocks
	if k == kindCode {
		spans = []codeBlock{{start: 0, end: len(raw)}}
	}
	for i, b := range spans {
		if k != kindCode && example[i] {
			continue
		}
		body := raw[b.start:b.end]
		if !strings.Contains(body, "env") {
			continue
		}
		services := map[string]bool{}
		for _, m := range secretEnvRE.FindAllStringSubmatchIndex(body, 64) {
			services[body[m[2]:m[3]]] = true
			if len(services) >= 2 {
				return b.start + m[0]
			}
		}
	}
	return -1
}

// excludeArgRE is a pattern a command is told to leave out: tar's, rsync's
// or grep's --exclude.
var excludeArgRE = regexp.MustCompile(`--exclude(?:-dir|-from)?(?:=|\s+)(?:"[^"\n]*"|'[^'\n]*'|\S+)`)

// lineEnd is where the line that starts at at ends.
func lineEnd(raw string, at int) int {
	if e := strings.IndexByte(raw[at:], '\n'); e >= 0 {
		return at + e
	}
	return len(raw)
}

// continuedRE is where a command line goes on to the next.
var continuedRE = regexp.MustCompile(`\\\r?\n`)

// continuedLineEnd is where the command line ending at end stops when its
// lines end in a backslash, which a shell reads as one line.
func continuedLineEnd(raw string, end int) int {
	for end < len(raw) && (strings.HasSuffix(raw[:end], "\\") || strings.HasSuffix(raw[:end], "\\\r")) {
		next := strings.IndexByte(raw[end+1:], '\n')
		if next < 0 {
			return len(raw)
		}
		end += 1 + next
	}
	return end
}

// printsText reports a shell line that only prints text: an echo or
// printf with no command substituted in it and nothing piped on. A script
// that tells its user "cp ~/.config/solana/id.json …" reads nothing.
func printsText(line string) bool {
	t := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(t, "echo ") && !strings.HasPrefix(t, "printf ") {
		return false
	}
	return !strings.ContainsAny(t, "|`") && !strings.Contains(t, "$(")
}

// lineOf is raw[start:end] in lower case, taken from lower when lowering
// kept raw's length. A few letters change length in lower case (ẞ, the
// Kelvin sign), and lower's offsets then are not raw's: a hostile text
// holding one must not throw the line out of step, nor past the end.
func lineOf(lower, raw string, start, end int) string {
	if len(lower) == len(raw) {
		return lower[start:end]
	}
	return strings.ToLower(raw[start:end])
}

// maxChildEnvChecks is how many copies of the environment a text's
// lines are read for as a child process's (childEnvOnly).
const maxChildEnvChecks = 8

// childEnvCopyRE is a copy of the environment kept in a name
// (env = os.environ.copy(), env = dict(os.environ), const env = {
// ...process.env }).
var childEnvCopyRE = regexp.MustCompile(`^\s*(?:const\s+|let\s+|var\s+)?([A-Za-z_]\w*)\s*=\s*(?:os\.environ\.copy\(\)|dict\(\s*os\.environ\s*\)|\{\s*\.\.\.process\.env\s*[,}])`)

// childEnvOnly reports whether line keeps a copy of the environment in a
// name that the code only hands to a child process as its environment
// (subprocess.run(cmd, env=env), spawn(cmd, { env })): the child has that
// environment anyway, and nothing is sent. A copy that a request's payload
// or a serializer also reads is a dump.
func childEnvOnly(raw, line string) bool {
	m := childEnvCopyRE.FindStringSubmatch(line)
	if m == nil {
		return false
	}
	name := regexp.QuoteMeta(m[1])
	child := regexp.MustCompile(`\benv\s*[=:]\s*` + name + `\b|[{,]\s*env\s*[,}]`)
	sent := regexp.MustCompile(`\b(?:json|data|body|payload|params|content)\s*[=:]\s*` + name + `\b|\b(?:dumps|stringify|entries|items|urlencode|b64encode|write)\(\s*` + name + `\b|` + name + `\.items\(\)`)
	return child.MatchString(raw) && !sent.MatchString(raw)
}

// namedVarsOnly reports a line that prints only the variables of the
// environment a search names, none of them a secret's (env | grep -i
// _proxy, printenv | grep ^LANG): a check of a setting, not a dump.
func namedVarsOnly(line string) bool {
	m := envGrepRE.FindStringSubmatch(line)
	return m != nil && !secretVarWordRE.MatchString(strings.Trim(m[1], `"'`))
}
