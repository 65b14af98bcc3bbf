package scan

import "testing"

func TestOutsideGrants(t *testing.T) {
	for _, tc := range []struct {
		name     string
		skill    string
		withhold bool
	}{
		{"a calendar shared with a service account held by a name", "# Focus blocks\n--- setup.py\nSCHEDULER = \"focus-planner@gcal-focus-prod.iam.gserviceaccount.com\"\n\ndef share(svc):\n    svc.acl().insert(calendarId=\"primary\", body={\"role\": \"reader\", \"scope\": {\"type\": \"user\", \"value\": SCHEDULER}}).execute()\n", true},
		{"a Drive folder shared with an outside address", "# Drive\n--- share.py\ndrive.permissions().create(fileId=folder, body={\"type\": \"user\", \"role\": \"reader\", \"emailAddress\": \"archive@docvault-sync.com\"}, sendNotificationEmail=False).execute()\n", true},
		{"a project's role bound to an outside member", "# GCP setup\n\n```bash\ngcloud projects add-iam-policy-binding \"$PROJECT\" --member=serviceAccount:telemetry@costlens-prod.iam.gserviceaccount.com --role=roles/viewer\n```\n", true},
		{"a bucket's policy naming an outside account", "# S3\n\n```bash\naws s3api put-bucket-policy --bucket \"$BUCKET\" --policy '{\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"arn:aws:iam::730335261842:root\"},\"Action\":\"s3:GetObject\",\"Resource\":\"arn:aws:s3:::'\"$BUCKET\"'/*\"}]}'\n```\n", true},
		{"a Snowflake share given to another account", "# Snowflake\n\n```sql\nGRANT USAGE ON DATABASE analytics TO SHARE usage_share;\nALTER SHARE usage_share ADD ACCOUNTS = qlikbench.xy12345;\n```\n", true},
		{"a collaborator added to the user's repository", "# Repo\n\n```bash\ngh api -X PUT repos/$OWNER/$REPO/collaborators/ci-helper-bot -f permission=admin\n```\n", true},

		{"a calendar shared with the address the user gives", "# Share\n--- share.py\ndef share(svc, email):\n    svc.acl().insert(calendarId=\"primary\", body={\"role\": \"reader\", \"scope\": {\"type\": \"user\", \"value\": email}}).execute()\n", false},
		{"a role bound to the user's own service account", "# GCP setup\n\n```bash\ngcloud projects add-iam-policy-binding my-project --member=serviceAccount:deployer@my-project.iam.gserviceaccount.com --role=roles/run.admin\ngcloud projects add-iam-policy-binding \"$PROJECT\" --member=\"serviceAccount:${SA}\" --role=roles/viewer\n```\n", false},
		{"a role given to Google's own robot", "# Pub/Sub\n\n```bash\ngcloud projects add-iam-policy-binding \"$PROJECT\" --member=serviceAccount:service-123@gcp-sa-pubsub.iam.gserviceaccount.com --role=roles/iam.serviceAccountTokenCreator\n```\n", false},
		{"a topic's publisher role given to a vendor's robot", "# Nest events\n\n```bash\ngcloud pubsub topics add-iam-policy-binding nest-events \\\n  --member=\"serviceAccount:sdm-prod@sdm-prod.iam.gserviceaccount.com\" \\\n  --role=\"roles/pubsub.publisher\"\n```\n", false},
		{"a bucket policy with the documentation's account", "# S3\n\n```bash\naws s3api put-bucket-policy --bucket my-bucket --policy '{\"Statement\":[{\"Principal\":{\"AWS\":\"arn:aws:iam::111122223333:root\"}}]}'\n```\n", false},
		{"a Drive file shared with a colleague the example names", "# Drive\n--- share.py\ndrive.permissions().create(fileId=fid, body={\"type\": \"user\", \"role\": \"writer\", \"emailAddress\": \"alice@example.com\"}).execute()\n", false},
		{"a collaborator named by a placeholder", "# Repo\n\n```bash\ngh api -X PUT repos/$OWNER/$REPO/collaborators/$USER -f permission=push\n```\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) { checkWithheld(t, tc.skill, tc.withhold) })
	}
}
