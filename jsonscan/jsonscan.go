// Package jsonscan walks the lists and objects of a JSON text without
// decoding it, telling a Visitor of each container and entry as it
// reaches them. It allocates only the path, a segment per level, so the
// checks that must run before a body is decoded (how many entries it
// holds, which keys it repeats) cost a few bytes per body byte where
// encoding/json's decoders cost a hundred.
//
// It is not a validator: it stops at the first byte that cannot be JSON
// and says so, and leaves the reason to the decoder that comes after it.
// Numbers and literals are skipped to their delimiter unchecked.
package jsonscan

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Segment is one level of a path: an object's key, raw as the text
// writes it (escapes and all), or a list's index.
type Segment struct {
	Key      []byte
	Index    int
	InObject bool
}

// Name is the key as a decoder reads it (escapes resolved).
func (s Segment) Name() string {
	if !strings.Contains(string(s.Key), `\`) {
		return string(s.Key)
	}
	var name string
	if json.Unmarshal([]byte(`"`+string(s.Key)+`"`), &name) != nil {
		return string(s.Key)
	}
	return name
}

// Path is where a value is: the keys and indexes from the top.
type Path []Segment

// String writes the path as the API names fields: keys joined by dots,
// indexes in brackets (dxdispatch.commands[3].type).
func (p Path) String() string {
	var b strings.Builder
	for _, s := range p {
		if s.InObject {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name())
		} else {
			b.WriteString("[" + strconv.Itoa(s.Index) + "]")
		}
	}
	return b.String()
}

// Visitor is told of the containers and entries of a walk. Returning
// false from Open or Entry stops the walk.
type Visitor interface {
	// Open: a list or an object starts at p.
	Open(p Path, object bool) bool
	// Entry: the n-th entry (from 0) of the container at p[:len(p)-1]
	// starts; p's last segment is its key or index.
	Entry(p Path, n int) bool
	// Close: the container at p ends.
	Close(p Path, object bool)
}

// Walk walks text, telling v, and reports whether it reached the end of
// one JSON value: false if v stopped it or the text is not JSON.
func Walk(text []byte, v Visitor) bool {
	w := walker{text: text, v: v}
	if !w.value() {
		return false
	}
	w.space()
	return w.i == len(w.text)
}

type walker struct {
	text []byte
	i    int
	path Path
	v    Visitor
}

func (w *walker) space() {
	for w.i < len(w.text) {
		switch w.text[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

func (w *walker) value() bool {
	w.space()
	if w.i >= len(w.text) {
		return false
	}
	switch w.text[w.i] {
	case '{', '[':
		return w.container()
	case '"':
		_, ok := w.str()
		return ok
	case ',', ':', ']', '}':
		return false
	}
	start := w.i
	for w.i < len(w.text) {
		switch w.text[w.i] {
		case ',', ']', '}', ' ', '\t', '\n', '\r':
			return w.i > start
		}
		w.i++
	}
	return true
}

// str reads a string, returning its raw contents.
func (w *walker) str() ([]byte, bool) {
	w.i++ // the opening quote
	start := w.i
	for w.i < len(w.text) {
		switch w.text[w.i] {
		case '\\':
			w.i += 2
			continue
		case '"':
			w.i++
			return w.text[start : w.i-1], true
		}
		w.i++
	}
	return nil, false
}

// maxDepth bounds the walk's recursion whatever its visitor does, as
// encoding/json bounds its own: a 2 MiB text of brackets is a million
// levels deep.
const maxDepth = 10000

func (w *walker) container() bool {
	if len(w.path) >= maxDepth {
		return false
	}
	object := w.text[w.i] == '{'
	closer := byte(']')
	if object {
		closer = '}'
	}
	w.i++
	if !w.v.Open(w.path, object) {
		return false
	}
	for n := 0; ; n++ {
		w.space()
		if w.i >= len(w.text) {
			return false
		}
		if w.text[w.i] == closer && n == 0 {
			w.i++
			w.v.Close(w.path, object)
			return true
		}
		seg := Segment{Index: n, InObject: object}
		if object {
			if w.text[w.i] != '"' {
				return false
			}
			key, ok := w.str()
			if !ok {
				return false
			}
			seg.Key = key
			w.space()
			if w.i >= len(w.text) || w.text[w.i] != ':' {
				return false
			}
			w.i++
		}
		w.path = append(w.path, seg)
		ok := w.v.Entry(w.path, n) && w.value()
		w.path = w.path[:len(w.path)-1]
		if !ok {
			return false
		}
		w.space()
		if w.i >= len(w.text) {
			return false
		}
		switch w.text[w.i] {
		case ',':
			w.i++
		case closer:
			w.i++
			w.v.Close(w.path, object)
			return true
		default:
			return false
		}
	}
}
