package admission

import (
	"testing"
	"time"
)

func TestGate(t *testing.T) {
	var g Gate
	closing := g.Closing()
	if !g.Admit() {
		t.Fatal("an open gate refused work")
	}
	drained := g.Close()
	select {
	case <-closing:
	default:
		t.Error("Closing's channel is open after Close")
	}
	if g.Admit() {
		t.Error("a closed gate admitted work")
	}
	select {
	case <-drained:
		t.Fatal("drained while admitted work is running")
	case <-time.After(10 * time.Millisecond):
	}
	again := g.Close() // a second Close waits for the same work
	g.Done()
	<-drained
	<-again
	select {
	case <-g.Closing():
	default:
		t.Error("Closing after Close returned an open channel")
	}
}

func TestGateCloseWithNothingAdmitted(t *testing.T) {
	var g Gate
	<-g.Close()
	if g.Admit() {
		t.Error("a closed gate admitted work")
	}
}
