// Package picture turns what a person typed into what the pages draw. The
// URL's query is the whole state of an explorer: LayoutState (the layout
// explorer: data type, sizes, strides, buffer, selection) and SliceState
// (the slice explorer: the input tensor, the DML_SLICE1 window, values,
// step) read a query (…FromQuery), validate it with core exactly as the
// JSON API validates its requests (Validate, ValidateSlice, and the
// request types in model.go, which the API decodes into), and write it
// back in one canonical order (CanonicalQuery), so that a link, an edit
// and a room's state all say the same thing the same way.
//
// A valid state becomes a Picture (New) or a SlicePicture (NewSlice): the
// views' models (cells, bands, facts, steps, notes) and what the live
// stream sends beside them (the compute walk, the filled input buffer and
// the copied output, the bitmap of cells read). Every number comes from
// core and compute; this package decides only how much is drawn, and how:
// HTML cells up to views.MaxDOMCells, canvases up to MaxInteractive, facts
// alone beyond.
//
// Resolve and ResolveSlice give a page something to draw for any query:
// the state typed, else the last valid one the page carried (&last=), else
// the default example, with a note that says which. Presets are the
// DirectML pages' own examples.
//
// The package knows no HTTP: web/ serves its pictures as pages, SVG and
// JSON, and live/ streams them over the websocket.
package picture
