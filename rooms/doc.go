// Package rooms holds the classroom rooms: a presenter's browser drives a
// room, the class's browsers follow it, on one server or on several
// replicas behind a load balancer. It knows nothing of HTTP or websockets:
// a session presents (Replica.Present, then Presenter.Update) or follows
// (Replica.Join, then Viewer.NextEvent), and web/ and live/ carry that to
// the pages.
//
// A room is small on purpose: its State is the page, the page's URL query,
// the presenter's focus and step, and a version. Every replica computes
// its own viewers' pictures; only states cross the Bus.
//
// The Bus is an interface of this package (bus.go), and the package
// imports no NATS: its adapter, rooms/natsbus, implements it over NATS (an
// embedded server by default, an external cluster with credentials and
// TLS for replicas), and knows no flag or environment variable either
// (cmd/server names them). Every Bus method that waits on the network
// takes a context, so a request that goes away stops waiting. The bus
// carries two things:
//
//   - live traffic on subjects stridescope.room.CODE.*: states, viewer
//     counts, presence announcements, a newer presenter connection
//     taking over (the newest tab or device presents), the word that the
//     presenter ended the room, and two request subjects (who presents,
//     and the newest state a holder of the room has);
//   - each room's record (code, creation, expiry, latest state) in a
//     JetStream key-value bucket, so that a room outlives the replica that
//     opened it: after a crash and a restart, or a replica dying, the
//     pages reconnect and carry on where they were.
//
// Everything on the bus and in the store is sealed: an HMAC, under a key
// derived from the shared room secret, over the subject (or the record's
// key) and the payload. A client that reaches NATS without the secret
// cannot steer a room, and a sealed message replayed elsewhere or later is
// dropped (its MAC names its subject; its version is older). Versions are
// times in microseconds on the bus's clock (each replica's clock corrected
// by its offset from the store's stamps, clock.go), and none more than a
// minute ahead is taken, so no message can push a room out of reach. A
// record is bound to the store's stamp of its write, and an ended room
// leaves a sealed tombstone, so a record written back later opens nothing.
//
// Presenter tokens are "EXPIRY.MAC" over the code, the room's creation
// time and the expiry: checked against the stored record, a token neither
// outlives its room (12 hours) nor opens a later room that draws the same
// code.
//
// Replica.Run owns every goroutine of a replica: it listens for the
// rooms' ends, starts the sender, the persister, the prober and the
// sweeper, and runs the replica's other work (asking who presents a room,
// catching up on its state, ending a room another replica ended) as tasks
// on its context; once its context is done it returns only when all of
// them have ended. A server starts it with the first room and, shutting
// down, ends it and waits for it before it closes the bus.
//
// No lock is held across bus I/O: publishes go through one sender
// goroutine with a bounded queue, dirty records through one persister
// that writes the newest state only, and a room is subscribed to outside
// the lock while callers wait on a channel. A new state is handed to a
// replica's viewers of the room as one Delivery carrying the viewer count,
// so that following it takes no replica lock per viewer and a server
// encodes its message once for all of them. When the bus goes down,
// viewers hear a link event (not "the presenter stopped"), presence is
// frozen, and when it returns the replica catches up from the store and
// the other holders. A replica subscribes to a room only while someone on
// it presents or follows; an index entry remains for rooms it opened, and
// at the cap an empty room gives way: one that never had a class (a
// presenter and a viewer) before any class, of the owner that opened the
// most, empty for longest. A room ends when its
// presenter ends it (End: at once, for everyone, on every replica), when it
// has been empty for 10 minutes on every replica, or at its expiry; a room no
// replica holds any more (all of them restarted) is ended by the store
// sweep once its last occupant's stamp is that old.
package rooms
