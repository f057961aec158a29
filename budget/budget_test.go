package budget

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestBudget(t *testing.T) {
	b := New(100, 20*time.Millisecond)
	ctx := context.Background()
	var be *Error
	if _, err := b.Take(ctx, 101); !errors.As(err, &be) || be.Busy || be.Code() != "too-large" {
		t.Errorf("more than the whole budget: %v, want too-large at once", err)
	}
	release, err := b.Take(ctx, 60)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := b.Take(ctx, 50); !errors.As(err, &be) || !be.Busy || be.Code() != "busy" {
		t.Errorf("past what is free: %v, want busy", err)
	}
	if d := time.Since(start); d < 20*time.Millisecond || d > time.Second {
		t.Errorf("waited %v for a busy budget, want its 20ms", d)
	}
	release()
	release() // a second release gives nothing back twice
	r2, err := b.Take(ctx, 100)
	if err != nil {
		t.Fatalf("the whole budget once free: %v", err)
	}
	r2()
	var none *Budget
	if r, err := none.Take(ctx, 1<<60); err != nil {
		t.Errorf("a nil budget grants everything: %v", err)
	} else {
		r()
	}
}

func TestGrantReleasesEverythingItTook(t *testing.T) {
	b := New(100, time.Millisecond)
	if err := Take(context.Background(), 1<<40); err != nil {
		t.Errorf("without a grant: %v, want everything granted", err)
	}
	ctx, release := WithGrant(context.Background(), b)
	for range 3 {
		if err := Take(ctx, 30); err != nil {
			t.Fatal(err)
		}
	}
	if err := Take(ctx, 30); err == nil {
		t.Error("a fourth 30 of 100 was granted")
	}
	release()
	if r, err := b.Take(context.Background(), 100); err != nil {
		t.Errorf("after the grant's release: %v", err)
	} else {
		r()
	}
}

// TestWithoutWaitRefusesWhatIsNotFree: optional work takes the budget only
// when its share is free at once; with a wait of an hour, a Take that
// waited would hang the test.
func TestWithoutWaitRefusesWhatIsNotFree(t *testing.T) {
	b := New(100, time.Hour)
	ctx := context.Background()
	hold, err := b.Take(ctx, 80)
	if err != nil {
		t.Fatal(err)
	}
	var be *Error
	if _, err := b.Take(WithoutWait(ctx), 30); !errors.As(err, &be) || !be.Busy {
		t.Errorf("30 of 20 free, without waiting: %v, want busy at once", err)
	}
	release, err := b.Take(WithoutWait(ctx), 20)
	if err != nil {
		t.Errorf("20 of 20 free, without waiting: %v", err)
	} else {
		release()
	}
	hold()
}
