package web

import (
	"time"
)

// A ReplicaStatus is one live replica as the shared registry has it, for
// the status page.
type ReplicaStatus struct {
	ID           string            `json:"id"`
	Address      string            `json:"address"`
	ConfigDigest string            `json:"configDigest"`
	Upstreams    map[string]string `json:"upstreams"`
	Started      time.Time         `json:"started"`
	Heartbeat    time.Time         `json:"heartbeat"`
	// Self marks the replica serving the page.
	Self bool `json:"self,omitempty"`
	// Disagrees marks a replica whose configuration digest differs from
	// the page's replica's: one left behind by a rollout, or a ConfigMap
	// not yet reloaded.
	Disagrees bool `json:"disagrees,omitempty"`
}

// ClusterStatus is what the status page shows of the replicas.
type ClusterStatus struct {
	Replicas []ReplicaStatus `json:"replicas"`
	// Error says why the registry could not be read (the database is
	// down); Replicas are then the last ones read.
	Error string `json:"error,omitempty"`
}

// clusterStatus asks o.Cluster for the replicas, and flags those whose
// configuration disagrees with this one's; nil without shared state.
func clusterStatus(cluster func() ([]ReplicaStatus, error)) *ClusterStatus {
	if cluster == nil {
		return nil
	}
	list, err := cluster()
	out := &ClusterStatus{Replicas: list}
	if err != nil {
		out.Error = err.Error()
	}
	self := ""
	for _, r := range list {
		if r.Self {
			self = r.ConfigDigest
		}
	}
	for i := range out.Replicas {
		r := &out.Replicas[i]
		r.Disagrees = !r.Self && self != "" && r.ConfigDigest != self
	}
	if out.Replicas == nil {
		out.Replicas = []ReplicaStatus{}
	}
	return out
}
