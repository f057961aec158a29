package interop

import (
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/jsonscan"
	"github.com/stridescope/stridescope/picture"
)

// How many entries an import may hold, checked on its bytes before any
// decoding (CheckImportSize): the JSON decoders allocate some hundred
// bytes per entry, so a 2 MiB body of a million one-byte entries took
// 1.2 CPU-s and 586 MiB. stridescope shows one dispatchable of a model;
// these are far past what a model of it needs, and what the site exports.
const (
	// MaxImportDispatchables is the most dispatchables a model may name.
	MaxImportDispatchables = 1024
	// MaxImportCommands is the most commands a model may list.
	MaxImportCommands = 4096
	// MaxImportResources is the most resources a model may name.
	MaxImportResources = 4096
	// MaxImportValues is the most initial values a resource may list,
	// as many as the site exports (MaxDxInitialValues).
	MaxImportValues = MaxDxInitialValues
	// MaxImportEntries is the most entries of any other list or object:
	// sizes, strides and windows have at most 8 (DirectML's dimension
	// count), a desc some tens of fields.
	MaxImportEntries = 256
	// MaxImportDepth is how deeply lists and objects may nest: a model
	// nests about six deep.
	MaxImportDepth = 64
)

// ImportCost is what the work budget is asked for an import of a body of
// n bytes, before it is read: the body, the decoders' garbage and the
// answer. The factor is measured (TestImportCostCoversAllocations) on the
// bodies that allocate the most per byte that CheckImportSize lets
// through.
func ImportCost(n int64) int64 {
	return importBase + importBytesPerByte*n
}

const (
	// importBase is a small import's worst: a tensor of MaxImportEntries
	// dimensions, each refused (measured: 0.5 MiB).
	importBase = 1 << 20
	// importBytesPerByte is the most a byte of body costs: dispatchables
	// whose descs hold objects of MaxImportEntries keys (measured: 53).
	importBytesPerByte = 64
)

// CheckImportSize refuses, before anything decodes it, an import body
// (POST /api/v1/import's request, or a model or request pasted into the
// import box) that holds more entries than an import can use, or nests
// deeper: at the first such field, the model's lists named as the body
// writes them (dxdispatch.commands in a request, commands in a pasted
// model). Whatever is not valid JSON is left to the decoders to report.
func CheckImportSize(body []byte) *ImportError {
	var c sizeCheck
	jsonscan.Walk(body, &c)
	if c.err == nil {
		return nil
	}
	return &ImportError{Violations: []core.Violation{*c.err}, TooLarge: true}
}

// sizeCheck counts each list's and object's entries against its cap.
type sizeCheck struct {
	caps []int // of the containers open, innermost last
	err  *core.Violation
}

func (c *sizeCheck) Open(p jsonscan.Path, object bool) bool {
	if len(p) >= MaxImportDepth {
		c.refuse(p, "import.depth", "{field} nests lists and objects more than {max} deep", MaxImportDepth)
		return false
	}
	c.caps = append(c.caps, entryCap(p, object))
	return true
}

func (c *sizeCheck) Entry(p jsonscan.Path, n int) bool {
	if max := c.caps[len(c.caps)-1]; n == max {
		c.refuse(p[:len(p)-1], "import.entries", "{field} holds more than {max} entries, more than an import can use", max)
		return false
	}
	return true
}

func (c *sizeCheck) Close(jsonscan.Path, bool) { c.caps = c.caps[:len(c.caps)-1] }

func (c *sizeCheck) refuse(p jsonscan.Path, code, tmpl string, max int) {
	f := p.String()
	v := core.NewMsg(code, tmpl, core.Args{"field": picture.FieldOrBody(f), "max": max}).At(f)
	c.err = &v
}

// entryCap is how many entries the list (or object) at p may hold. Keys
// are matched in any case, as the decoders match them.
func entryCap(p jsonscan.Path, object bool) int {
	name := func(i int, want string) bool { return p[i].InObject && strings.EqualFold(p[i].Name(), want) }
	// The model's own lists: at the top of a pasted model, or of a
	// request's dxdispatch.
	if len(p) > 0 && name(0, "dxdispatch") {
		p = p[1:]
	}
	switch {
	case len(p) == 3 && !object && name(0, "resources") && name(2, "initialValues"):
		return MaxImportValues
	case len(p) == 1 && name(0, "dispatchables"):
		return MaxImportDispatchables
	case len(p) == 1 && name(0, "commands"):
		return MaxImportCommands
	case len(p) == 1 && name(0, "resources"):
		return MaxImportResources
	}
	return MaxImportEntries
}
