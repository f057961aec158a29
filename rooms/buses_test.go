package rooms_test

import (
	"github.com/stridescope/stridescope/rooms"
	"github.com/stridescope/stridescope/rooms/natsbus"
)

// The rooms' tests run over real NATS buses (export_test.go).
func init() {
	rooms.EmbeddedBus = func(dataDir string) (rooms.Bus, error) {
		b, err := natsbus.NewEmbedded(dataDir)
		if err != nil {
			return nil, err
		}
		return b, nil
	}
	rooms.DialBus = func(url string) (rooms.Bus, error) {
		b, err := natsbus.New(natsbus.Options{URL: url})
		if err != nil {
			return nil, err
		}
		return b, nil
	}
	rooms.StoreBucket = natsbus.Bucket
}
