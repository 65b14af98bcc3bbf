-- Each replica publishes its upstreams' states beside its configuration
-- digest, for the status page of every replica (docs/teams.md).
ALTER TABLE toolsearch_replicas ADD COLUMN upstreams jsonb NOT NULL DEFAULT '{}';
