package rooms

import (
	"context"
	"errors"
	"time"
)

// Bus carries room state between the replicas that serve one classroom,
// and stores each room's record so that rooms outlive a replica. Only the
// small parameter state travels; every replica computes its own pictures.
type Bus interface {
	// Publish sends data to everyone subscribed to subject.
	Publish(ctx context.Context, subject string, data []byte) error
	// Subscribe calls fn for each message on subject (NATS wildcards
	// allowed) until the returned function is called. It returns once
	// the subscription is in place, or ctx is done.
	Subscribe(ctx context.Context, subject string, fn func(subject string, data []byte)) (unsubscribe func(), err error)
	// Serve answers requests on subject with fn's reply; a nil reply stays
	// silent so another replica may answer. It returns once the
	// subscription is in place, or ctx is done.
	Serve(ctx context.Context, subject string, fn func(data []byte) []byte) (stop func(), err error)
	// Request asks subject and returns the first answer before ctx is
	// done: ErrNoAnswer when nobody answered by its deadline.
	Request(ctx context.Context, subject string, data []byte) ([]byte, error)

	// CreateRoom stores a new room's record: ErrRoomExists when the code
	// is taken.
	CreateRoom(ctx context.Context, code string, record []byte) error
	// PutRoom writes a record (a room's "someone is in it" stamp).
	PutRoom(ctx context.Context, code string, record []byte) error
	// UpdateRoom replaces a room's record only while the store holds it
	// at revision (as GetRoom read it): ErrRoomChanged when it has been
	// written since, ErrNoRoom when it is gone, so that the caller reads
	// it again and decides again (a write in flight never lands on an
	// end).
	UpdateRoom(ctx context.Context, code string, record []byte, revision uint64) error
	// GetRoom reads a room's record: ErrNoRoom when there is none.
	GetRoom(ctx context.Context, code string) (RoomEntry, error)
	// DeleteRoom ends a room.
	DeleteRoom(ctx context.Context, code string) error
	// ListRooms returns the keys of every stored record.
	ListRooms(ctx context.Context) ([]string, error)
	// ProbeStore writes to the store and reads the write back, so that a
	// store that cannot be written is noticed before a room needs it,
	// and tells when the store wrote it, on the store's clock. A store
	// whose bucket is gone (deleted, or NATS restarted on an empty store)
	// gets it made again, and says so (StoreProbe.Recreated).
	ProbeStore(ctx context.Context) (StoreProbe, error)

	// Up reports whether the bus is connected now.
	Up() bool
	// Watch calls fn whenever the bus goes down or comes back.
	Watch(fn func(up bool))
	Close() error
}

// ErrNoAnswer is returned by Request when nobody answered in time.
var ErrNoAnswer = errors.New("no answer on the bus")

// ErrBusClosed is returned by Publish after Close (a session leaving a
// room while the server shuts down).
var ErrBusClosed = errors.New("the bus is closed")

// ErrRoomExists is returned by CreateRoom for a code already in use.
var ErrRoomExists = errors.New("the room code is taken")

// ErrRoomChanged is returned by UpdateRoom when the record was written
// after it was read.
var ErrRoomChanged = errors.New("the room's record changed since it was read")

// RoomEntry is a record as the store holds it.
type RoomEntry struct {
	Value    []byte
	Revision uint64
	// Stored is when the store wrote it, on the store's clock, which no
	// client sets: a record written back later, even byte for byte, has
	// a later one.
	Stored time.Time
}

// StoreProbe is what ProbeStore found.
type StoreProbe struct {
	Revision  uint64    // the probe's revision: a smaller one than before means a new bucket
	Stored    time.Time // when the store wrote the probe, on its clock (zero if it could not be read back)
	Recreated bool      // the bucket was gone and this probe made it again
}
