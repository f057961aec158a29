package live

import (
	"testing"
	"unicode/utf8"
)

// FuzzDecodeClientMsg: any bytes a peer sends decode to a message or a
// problem, never a panic; an accepted message is in protocol range.
func FuzzDecodeClientMsg(f *testing.F) {
	for _, s := range []string{
		`{"v":2,"type":"edit","seq":1,"query":"sizes=2,3"}`,
		`{"v":2,"type":"edit","seq":4294967295,"query":""}`,
		`{"v":2,"type":"edit","seq":1.5}`,
		`{"v":2} {"v":2}`,
		`{"v":2,"type":"edit","seq":1,"query":"","page":"slice"}`,
		`[]`, `null`, `"x"`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, problem := decodeClientMsg(data)
		if problem == "" && (m.V != ProtocolVersion || m.Seq <= 0 || m.Seq > 1<<32-1) {
			t.Fatalf("accepted an out-of-range message %+v from %q", m, data)
		}
		if problem != "" && !utf8.ValidString(problem) {
			t.Fatalf("problem text is not UTF-8: %q", problem)
		}
	})
}
