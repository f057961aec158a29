package main

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestLoadtestSmall runs a small room load test against an in-process
// server: every viewer must get the final state.
func TestLoadtestSmall(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := config{viewers: 50, slow: 5, rate: 20, duration: 2 * time.Second, self: true, share: true, apply: true}
	r, err := loadtest(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	r.print(&b)
	t.Log("\n" + b.String())
	if fast := c.viewers - c.slow; r.finalFast != fast {
		t.Errorf("the final state reached %d of %d fast viewers", r.finalFast, fast)
	}
	if r.published < 20 || r.delivered == 0 || r.p99 <= 0 || r.applied == 0 {
		t.Errorf("published %d, delivered %d, p99 %v, applied %d", r.published, r.delivered, r.p99, r.applied)
	}
	if r.watching != c.viewers {
		t.Errorf("the presenter saw %d watching, want %d", r.watching, c.viewers)
	}
}

func TestLoadtestFlags(t *testing.T) {
	if err := run([]string{"-viewers", "0"}, &strings.Builder{}); err == nil {
		t.Error("-viewers 0 accepted")
	}
}

// TestLoadAnswers: 30 students on two replicas answer a room question;
// the presenter's tally counts each exactly once.
func TestLoadAnswers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := loadAnswers(ctx, answersConfig{students: 30, replicas: 2, within: 2 * time.Second, restart: -1})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	r.print(&b)
	t.Log("\n" + b.String())
	if r.counted != 30 || !r.exact || r.refusedAnswers != 0 || r.p99 <= 0 {
		t.Errorf("counted %d of 30 (exact: %v, refused %d), p99 %v", r.counted, r.exact, r.refusedAnswers, r.p99)
	}
}

// TestLoadAnswersAcrossARestart: the presenter's replica restarts halfway
// through; its presenter and students reconnect, and no answer is lost
// or counted twice.
func TestLoadAnswersAcrossARestart(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r, err := loadAnswers(ctx, answersConfig{students: 30, replicas: 2, within: 4 * time.Second, restart: 0})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	r.print(&b)
	t.Log("\n" + b.String())
	if !r.restarted || r.counted != 30 || !r.exact || r.refusedAnswers != 0 {
		t.Errorf("restarted %v; counted %d of 30 (exact: %v, refused %d)", r.restarted, r.counted, r.exact, r.refusedAnswers)
	}
}
