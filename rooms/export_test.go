package rooms

// The tests' buses are real NATS ones, made by rooms/natsbus, which a test
// of this package cannot import (natsbus imports rooms): buses_test.go,
// of the external test package, sets these before any test runs.
var (
	// EmbeddedBus is natsbus.NewEmbedded.
	EmbeddedBus func(dataDir string) (Bus, error)
	// DialBus is natsbus.New with only the URL of a NATS server.
	DialBus func(url string) (Bus, error)
	// StoreBucket is the name of the rooms' key-value bucket (natsbus.Bucket).
	StoreBucket string
)
