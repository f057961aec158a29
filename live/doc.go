// Package live runs the explorers' websocket sessions (docs/protocol.md).
// web/ upgrades GET /ws, decides whether the connection may stay (origin,
// the fair share of sockets), and hands it to Hub.NewSession; from there
// until the connection closes, an edit's way from the socket to the
// frames it sends stays in this package and the explorer it names
// (an explorer.Kind: Hub.Pages.Kinds, every one in ops by default). This
// package draws nothing and renders no HTML: it frames the explorer's
// answer.
//
// Each session has three kinds of goroutine:
//
//   - the reader (the handler's goroutine) reads one message at a time,
//     paced per connection, and either answers a room message (rooms.go)
//     or starts an edit;
//   - each edit computes in its own goroutine, under a context that the
//     next edit cancels (latest wins): runEdit parses the query, asks
//     the page's explorer for its answer, and emits the JSON result and
//     the binary frames its stream sends (framesOut), chunk by chunk;
//   - exactly one writer owns every write to the socket: data frames in
//     order, control frames first, pings; it drops frames of superseded
//     edits and sends the close frame when the session ends (1001 at
//     shutdown, 1013 when evicted, 1009, 1011 on a panic).
//
// Answers shares the answers to edits between the sessions of a replica:
// in a room every viewer asks for the presenter's state, so an answer is
// computed once, recorded, and replayed with each asker's sequence number.
//
// A session presents or follows at most one room; the room itself is
// package rooms', and this package turns its events into the protocol's
// messages, one goroutine per present or follow handing them to the
// writer, latest only. A room's state reaches every follower on a replica
// as one rooms.Delivery, so its message is encoded once and each
// follower's writer sends the same bytes.
package live
