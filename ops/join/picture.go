package join

import (
	"context"
	"fmt"
	"strconv"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// PictureView is everything drawn for one valid join or split: each
// tensor's logical grid (the values 1, 2, 3... a join's inputs numbered
// on from one to the next, as the DML_JOIN page writes them), every
// output cell linked to the input cell it is copied from and back, and
// the copies the operator is: one strided copy an input into its window
// of the output (join), one DML_SLICE1 an output (split).
type PictureView struct {
	Op      string
	Inputs  []TensorView
	Outputs []TensorView
	// Copies are the strided copies, one a line.
	Copies []Copy
	// Sum is the page's pseudo-code worked out: joinSize (splitSize)
	// summed over the tensors along the axis, then its assert.
	Sum   []string
	NumPy string
	CPP   string
	ONNX  string
	Level string
	// Erratum explains where the DML_JOIN page contradicts the feature
	// level history ("" where it does not matter).
	Erratum string
	// TooLarge says why the grids are not drawn ("" when they are);
	// SVG is then the address of the state's binned picture, which the
	// page shows instead.
	TooLarge, SVG string
	Warnings      []string
	// Alt names what is drawn: the alt text of the Embed popover's
	// snippet.
	Alt string
}

// TensorView is one tensor's grid and what heads it.
type TensorView struct {
	Grid    string // the cells' id prefix: i0, o2
	Heading string // InputTensors[1] (b)
	Sub     string // {1,1,2,4}, strides {8,8,4,1}
	Logical views.Logical
}

// Copy is one of the strided copies the operator is.
type Copy struct {
	Name string // b, y1
	Text string
}

// Drawn reports a state small enough for its grids in the HTML: the
// output elements (as many as the input elements) at most
// views.MaxDOMCells.
func Drawn(v Validated) bool { return elementCount(v) <= views.MaxDOMCells }

func elementCount(v Validated) int64 {
	if v.Join != nil {
		return v.Join.Output.LogicalElementCount()
	}
	return v.Split.Input.LogicalElementCount()
}

// NewPicture draws a valid state.
func NewPicture(ctx context.Context, v Validated) PictureView {
	pv := PictureView{Op: v.State.Op}
	n := elementCount(v)
	if v.Join != nil {
		pv.CPP, pv.ONNX = v.Join.CPP(), JoinONNX(v.Join).Text()
		if r := v.Join.Output.Rank(); r != 4 && r != 5 {
			// The page's table refuses this rank before 4_1, the history
			// page from 3_1: the level the join needs depends on whom one
			// believes.
			pv.Erratum = i18n.T(ctx, "joinsplit.erratum.rank", i18n.Args{"rank": r})
		}
		pv.NumPy, pv.Level = JoinNumPy(v.Join), i18n.T(ctx, "joinsplit.level", i18n.Args{"op": "DML_OPERATOR_JOIN", "level": v.Join.MinFeatureLevel().String()})
		pv.Alt = i18n.T(ctx, "joinsplit.alt", i18n.Args{"n": len(v.Join.Inputs), "axis": v.Join.Axis, "sizes": views.Braces(v.Join.Output.Sizes)})
	} else {
		pv.CPP, pv.ONNX = v.Split.CPP(), SplitONNX(v.Split).Text()
		pv.NumPy, pv.Level = SplitNumPy(v.Split), i18n.T(ctx, "joinsplit.level", i18n.Args{"op": "DML_OPERATOR_SPLIT", "level": v.Split.MinFeatureLevel().String()})
		pv.Alt = i18n.T(ctx, "joinsplit.split.alt", i18n.Args{"n": len(v.Split.Outputs), "axis": v.Split.Axis, "sizes": views.Braces(v.Split.Input.Sizes)})
	}
	for _, w := range picture.Localised(ctx, v.Warnings) {
		pv.Warnings = append(pv.Warnings, w.Message)
	}
	if v.Join != nil {
		pv.Copies = joinCopies(ctx, v.Join)
		pv.Sum = sumLines("joinSize", "InputTensors", "OutputTensor", v.Join.Axis, layoutSizes(v.Join.Inputs), v.Join.Output.Sizes)
	} else {
		pv.Copies = splitCopies(ctx, v.Split)
		pv.Sum = sumLines("splitSize", "OutputTensors", "InputTensor", v.Split.Axis, layoutSizes(v.Split.Outputs), v.Split.Input.Sizes)
	}
	if canvasDrawn(v) {
		pv.Inputs, pv.Outputs = canvasViews(ctx, v)
		return pv
	}
	if !Drawn(v) {
		pv.TooLarge = i18n.T(ctx, "joinsplit.toolarge", i18n.Args{"n": i18n.Grouped(ctx, n), "max": i18n.Grouped(ctx, int64(picture.MaxInteractive))})
		pv.SVG = svgURL(ctx, v)
		return pv
	}
	if v.Join != nil {
		pv.Inputs, pv.Outputs = joinGrids(ctx, v.Join)
	} else {
		pv.Inputs, pv.Outputs = splitGrids(ctx, v.Split)
	}
	return pv
}

func joinCopies(ctx context.Context, j *core.Join) []Copy {
	var out []Copy
	for k, in := range j.Inputs {
		size := in.Sizes[j.Axis]
		out = append(out, Copy{Name: tensorName(k), Text: i18n.T(ctx, "joinsplit.copy", i18n.Args{
			"k": k, "axis": j.Axis, "from": j.Starts[k], "to": j.Starts[k] + size - 1, "n": size,
			"offsets": "{" + views.JoinInts(windowOffsets(in.Rank(), j.Axis, j.Starts[k])) + "}", "sizes": "{" + views.JoinInts(in.Sizes) + "}"})})
	}
	return out
}

func splitCopies(ctx context.Context, s *core.Split) []Copy {
	var out []Copy
	for k := range s.Outputs {
		d := s.Slice1Desc(k)
		out = append(out, Copy{Name: "y" + strconv.Itoa(k), Text: i18n.T(ctx, "joinsplit.split.copy", i18n.Args{
			"k": k, "offsets": "{" + views.JoinInts(d.WindowOffsets) + "}", "sizes": "{" + views.JoinInts(d.WindowSizes) + "}", "strides": "{" + views.JoinInts(d.WindowStrides) + "}"})})
	}
	return out
}

func windowOffsets(rank, axis int, start int64) []int64 {
	o := make([]int64, rank)
	o[axis] = start
	return o
}

// grid is a tensor's logical grid, cells labelled by value (values[i]
// of element i) and linked (link(i)), named for screen readers.
func grid(ctx context.Context, l *core.Layout, id string, values []int64, link func(i int64) string, aria func(i int64, c string) string) views.Logical {
	offs := picture.LayoutOffsets(l)
	bands := picture.LogicalBands(l, offs, views.LabelIndex, nil, -1)
	for b := range bands {
		for p := range bands[b].Panels {
			for r := range bands[b].Panels[p].Rows {
				cells := bands[b].Panels[p].Rows[r].Cells
				for c := range cells {
					cl := &cells[c]
					cl.Grid, cl.Label, cl.Link = id, strconv.FormatInt(values[cl.Index], 10), link(cl.Index)
					cl.Aria = cl.Label + ", " + aria(cl.Index, cl.Coord)
				}
			}
		}
	}
	return views.Logical{Mode: views.ModeDOM, Count: l.LogicalElementCount(), Last: l.IndexOfLastElement(), Bands: bands}
}

func cellID(grid string, i int64) string { return grid + "-" + strconv.FormatInt(i, 10) }

func tensorSub(ctx context.Context, l *core.Layout) string {
	return i18n.T(ctx, "joinsplit.tensor.sub", i18n.Args{"sizes": "{" + views.JoinInts(l.Sizes) + "}", "strides": "{" + views.JoinInts(l.Strides) + "}"})
}

// joinGrids are the inputs' grids and the output's: each output cell
// holds its source's value and links to it, each input cell to where it
// is written.
func joinGrids(ctx context.Context, j *core.Join) (ins, outs []TensorView) {
	first := make([]int64, len(j.Inputs)) // the value of each input's element 0
	var at int64 = 1
	for k, in := range j.Inputs {
		first[k] = at
		at += in.LogicalElementCount()
	}
	n := j.Output.LogicalElementCount()
	values := make([]int64, n)
	dest := make([][]int64, len(j.Inputs)) // input k's element i is written to output element dest[k][i]
	for k, in := range j.Inputs {
		dest[k] = make([]int64, in.LogicalElementCount())
	}
	srcK, srcI := make([]int, n), make([]int64, n)
	for i := range n {
		k, c := j.Source(i)
		e := picture.RowMajorIndex(j.Inputs[k].Sizes, c)
		values[i], srcK[i], srcI[i] = first[k]+e, k, e
		dest[k][e] = i
	}
	for k, in := range j.Inputs {
		vals := make([]int64, in.LogicalElementCount())
		for i := range vals {
			vals[i] = first[k] + int64(i)
		}
		id := "i" + strconv.Itoa(k)
		lg := grid(ctx, in, id, vals, func(i int64) string { return cellID("o0", dest[k][i]) }, func(i int64, c string) string {
			return i18n.T(ctx, "joinsplit.aria.in", i18n.Args{"name": tensorName(k), "coord": c, "out": views.JoinInts(j.Output.Coordinate(dest[k][i]))})
		})
		ins = append(ins, TensorView{Grid: id, Heading: fmt.Sprintf("InputTensors[%d] (%s)", k, tensorName(k)), Sub: tensorSub(ctx, in), Logical: lg})
	}
	lg := grid(ctx, j.Output, "o0", values, func(i int64) string { return cellID("i"+strconv.Itoa(srcK[i]), srcI[i]) }, func(i int64, c string) string {
		return i18n.T(ctx, "joinsplit.aria.out", i18n.Args{"coord": c, "name": tensorName(srcK[i]), "from": views.JoinInts(j.Inputs[srcK[i]].Coordinate(srcI[i]))})
	})
	outs = []TensorView{{Grid: "o0", Heading: "OutputTensor", Sub: tensorSub(ctx, j.Output), Logical: lg}}
	return ins, outs
}

// splitGrids are the input's grid and each output's, linked as a join's.
func splitGrids(ctx context.Context, s *core.Split) (ins, outs []TensorView) {
	n := s.Input.LogicalElementCount()
	vals := make([]int64, n)
	for i := range vals {
		vals[i] = int64(i) + 1
	}
	destK, destI := make([]int, n), make([]int64, n)
	for k, o := range s.Outputs {
		sl, err := s.Slice1(k)
		if err != nil {
			continue // never: a split's windows are valid slices
		}
		m := o.LogicalElementCount()
		ovals, src := make([]int64, m), make([]int64, m)
		for i := range m {
			e := picture.RowMajorIndex(s.Input.Sizes, sl.InputCoordinate(i))
			ovals[i], src[i] = e+1, e
			destK[e], destI[e] = k, i
		}
		id := "o" + strconv.Itoa(k)
		lg := grid(ctx, o, id, ovals, func(i int64) string { return cellID("i0", src[i]) }, func(i int64, c string) string {
			return i18n.T(ctx, "joinsplit.split.aria.out", i18n.Args{"k": k, "coord": c, "from": views.JoinInts(s.Input.Coordinate(src[i]))})
		})
		outs = append(outs, TensorView{Grid: id, Heading: fmt.Sprintf("OutputTensors[%d] (y%d)", k, k), Sub: tensorSub(ctx, o), Logical: lg})
	}
	lg := grid(ctx, s.Input, "i0", vals, func(i int64) string { return cellID("o"+strconv.Itoa(destK[i]), destI[i]) }, func(i int64, c string) string {
		return i18n.T(ctx, "joinsplit.split.aria.in", i18n.Args{"coord": c, "k": destK[i], "out": views.JoinInts(s.Outputs[destK[i]].Coordinate(destI[i]))})
	})
	ins = []TensorView{{Grid: "i0", Heading: "InputTensor (x)", Sub: tensorSub(ctx, s.Input), Logical: lg}}
	return ins, outs
}

func layoutSizes(ls []*core.Layout) [][]int64 {
	out := make([][]int64, len(ls))
	for i, l := range ls {
		out[i] = l.Sizes
	}
	return out
}

// sumLines work the DirectML page's pseudo-code out for these tensors:
// the size along the axis added up tensor by tensor, then the assert
// that holds it to the one tensor's (many: InputTensors, one:
// OutputTensor for a join).
func sumLines(name, many, one string, axis int, sizes [][]int64, want []int64) []string {
	lines := []string{name + " = 0"}
	var sum int64
	for i, s := range sizes {
		sum += s[axis]
		lines = append(lines, fmt.Sprintf("%s[%d]->Sizes[%d] = %d: %s = %d", many, i, axis, s[axis], name, sum))
	}
	return append(lines, fmt.Sprintf("assert(%s == %s->Sizes[%d]): %d == %d", name, one, axis, sum, want[axis]))
}
