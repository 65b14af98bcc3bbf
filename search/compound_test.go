package search

import "testing"

// TestCompoundNames: a name's word that runs two of the catalog's words together
// (`bicepschema`, `hostpool`, `appservice`) matches a request that writes them apart; a name
// that has the word whole still comes first; an English word is never cut ("jackson" is no
// jack and son), nor a word into parts the catalog never uses on their own.
func TestCompoundNames(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		Document{ID: "bicepschema_get", Name: "bicepschema_get", Description: "Get the schema of a resource type for templates."},
		Document{ID: "deploy_plan", Name: "deploy_plan", Description: "Plan a deployment from Bicep or Terraform files."},
		Document{ID: "virtualdesktop_hostpool_list", Name: "virtualdesktop_hostpool_list", Description: "List them."},
		Document{ID: "pool_list", Name: "pool_list", Description: "List them."},
		Document{ID: "vm_list", Name: "vm_list", Description: "List the virtual machines."},
		Document{ID: "appservice_get", Name: "appservice_get", Description: "Get one."},
		Document{ID: "app_list", Name: "app_list", Description: "List the apps of a service plan."},
		Document{ID: "dns_get", Name: "dns_get", Description: "Get the DNS record of a host name."},
		Document{ID: "jackson_parse", Name: "jackson_parse", Description: "Parse JSON."},
		Document{ID: "family_tree", Name: "family_tree", Description: "The son of a jack of all trades."},
	)
	checkRanked(t, ix, []rankCase{
		{"bicep schema for storage accounts", "bicepschema_get", ""},
		{"the host pools of my virtual desktop", "virtualdesktop_hostpool_list", ""},
		{"get my app service", "appservice_get", ""},
		{"pool list", "pool_list", ""}, // the whole word before the part
	})
	// The batch's own words are vocabulary, whichever document comes first: bicepschema_get
	// came before the description that says "Bicep".
	if l, r := ix.compoundParts("bicepschema"); l != "bicep" || r != "schema" {
		t.Errorf(`compoundParts("bicepschema") = %q, %q`, l, r)
	}
	if got := compoundWords(nil, "jackson_parse"); len(got) != 0 {
		t.Errorf(`compoundWords("jackson_parse") = %q, want none`, got)
	}
}
