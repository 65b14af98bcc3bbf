package pgstate_test

import (
	"time"

	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
	"golang.org/x/oauth2"
)

func nowPlusMinute() time.Time { return time.Now().Add(time.Minute) }

func statetestGrant(k oauth.GrantKey) *oauth.Grant {
	return &oauth.Grant{Server: k.Server, Resource: k.Resource, ClientID: "c", ClientSecret: "client-secret-xyz",
		Token: &oauth2.Token{AccessToken: "access-secret", RefreshToken: "refresh-secret", Expiry: time.Now().Add(time.Hour)}}
}
