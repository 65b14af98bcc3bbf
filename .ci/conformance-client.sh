#!/usr/bin/env bash
# The client the MCP conformance suite runs (conformance client --command):
# toolsearch itself, driven as a person would. The suite appends the URL of
# its test server and names the scenario in MCP_CONFORMANCE_SCENARIO
# (client credentials, for some, in MCP_CONFORMANCE_CONTEXT). This script
# writes a .mcp.json for that URL, logs in with `toolsearch auth login`
# (its browser, $BROWSER, is fetch-browser.cjs: it fetches the login page
# and follows the redirects to toolsearch's own callback), then calls the
# scenario's tool with `toolsearch call`.
#
# Needs TOOLSEARCH (the binary) and NODE (to read the context JSON).
set -euo pipefail
url=${1:?usage: conformance-client.sh SERVER_URL}
scenario=${MCP_CONFORMANCE_SCENARIO:?the suite sets MCP_CONFORMANCE_SCENARIO}
toolsearch=${TOOLSEARCH:?TOOLSEARCH must name the toolsearch binary}
node=${NODE:-node}
here=$(cd "$(dirname "$0")" && pwd)

# Each scenario starts with no tokens and no cached catalogs.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work/home XDG_CONFIG_HOME=$work/config XDG_CACHE_HOME=$work/cache
mkdir -p "$HOME"
cd "$work"

printf '{"mcpServers": {"conformance": {"type": "http", "url": "%s"}}}\n' "$url" >.mcp.json

# Pre-registered credentials reach toolsearch.yaml through the environment,
# as a real secret would. A client ID metadata document URL is always
# offered: authorization servers that do not support them register
# toolsearch dynamically instead.
context_field() {
  "$node" -e 'const c = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}"); process.stdout.write(String(c[process.argv[1]] ?? ""))' "$1"
}
export CONFORMANCE_CLIENT_ID CONFORMANCE_CLIENT_SECRET
CONFORMANCE_CLIENT_ID=$(context_field client_id)
CONFORMANCE_CLIENT_SECRET=$(context_field client_secret)
{
  echo "servers:"
  echo "  conformance:"
  # A remote server's first listing waits for a person by default
  # (docs/trust.md); the suite tests the protocol, not that step, so the
  # operator's documented opt-out is taken: its first listing is trusted.
  echo "    quarantine: changed"
  echo "    oauth:"
  echo "      clientMetadataUrl: https://conformance-test.local/client-metadata.json"
  if [ -n "$CONFORMANCE_CLIENT_ID" ]; then
    echo '      clientId: ${CONFORMANCE_CLIENT_ID}'
    echo '      clientSecret: ${CONFORMANCE_CLIENT_SECRET}'
  fi
} >toolsearch.yaml

export BROWSER=$here/fetch-browser.cjs
"$toolsearch" auth login conformance --wait 20s

case $scenario in
initialize) "$toolsearch" catalog --wait 20s ;;
tools_call) "$toolsearch" call conformance__add_numbers --args '{"a": 5, "b": 3}' --wait 20s ;;
sse-retry) "$toolsearch" call conformance__test_reconnection --args '{}' --wait 20s ;;
# The server asks a question during the call; the person accepts the
# values it proposes.
elicitation-sep1034-client-defaults)
  "$toolsearch" call conformance__test_client_elicitation_defaults --args '{}' --elicit defaults --wait 20s ;;
*) "$toolsearch" call conformance__test-tool --args '{}' --wait 20s ;;
esac
