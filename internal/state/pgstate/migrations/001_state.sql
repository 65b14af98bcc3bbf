-- toolsearch's shared state: see docs/teams.md. Applied once, in one
-- transaction, under an advisory lock (migrate.go).

-- Approvals, a row per source (an upstream server's configuration, or the
-- skills): its entries' approved digests as JSON. A source's row existing
-- is the mark of its first listing, inserted once.
CREATE TABLE toolsearch_approvals (
	key     text PRIMARY KEY,
	name    text NOT NULL,
	entries jsonb NOT NULL
);

-- Sequence numbers: bumped by every change of what they count, in the
-- same transaction; a replica re-reads when the number it holds is old.
CREATE TABLE toolsearch_sequence (
	name text PRIMARY KEY,
	seq  bigint NOT NULL
);
INSERT INTO toolsearch_sequence (name, seq) VALUES ('approvals', 0);

-- The servers' last known catalogs, by the name their file would have.
CREATE TABLE toolsearch_catalogs (
	name  text PRIMARY KEY,
	body  bytea NOT NULL,
	saved timestamptz NOT NULL DEFAULT now()
);

-- OAuth grants, sealed with the key file's key (AES-256-GCM, bound to
-- their key); version changes with every write, from one sequence, so
-- that a grant deleted and stored again never repeats one.
CREATE SEQUENCE toolsearch_grant_version;
CREATE TABLE toolsearch_grants (
	principal text NOT NULL,
	server    text NOT NULL,
	resource  text NOT NULL,
	sealed    bytea NOT NULL,
	version   bigint NOT NULL,
	PRIMARY KEY (principal, server, resource)
);

-- Logins begun and not yet completed, by their OAuth state, sealed: the
-- callback may reach another replica than the one that began the login.
CREATE TABLE toolsearch_logins (
	state     text PRIMARY KEY,
	principal text NOT NULL,
	server    text NOT NULL,
	sealed    bytea NOT NULL,
	expires   timestamptz NOT NULL
);

-- The live replicas: each tells its address and configuration digest,
-- and beats while it runs.
CREATE TABLE toolsearch_replicas (
	id            text PRIMARY KEY,
	address       text NOT NULL,
	config_digest text NOT NULL,
	started       timestamptz NOT NULL,
	heartbeat     timestamptz NOT NULL
);
