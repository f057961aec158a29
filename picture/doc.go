// Package picture is the operators' kit: what every explorer (ops/...)
// shares to read a tensor description from a URL and draw it.
//
// LayoutState is one tensor as a query states it (data type, sizes,
// strides, buffer, selection): LayoutStateFromQuery reads it, Validate
// checks it with core exactly as the JSON API checks a LayoutRequest,
// CanonicalQuery writes it back in one canonical order, so that a link,
// an edit and a room's state all say the same thing the same way.
// Resolve gives a page something to draw for any query: the state typed,
// else the last valid one the page carried (&last=), else the default
// example, with a note that says which. An operator whose input is a
// tensor (DML_SLICE1's) embeds a LayoutState and its query keys.
//
// A valid tensor becomes a Picture (New, NewSVG): the views' models of
// its logical view and its buffer (bands, rows, facts, notes) and what
// the live stream sends beside them (the compute walk). The helpers an
// operator draws its own views with (LogicalBands, BufferRows,
// BufferFact, NoScriptSVG), the work budget's cost units (CostBase,
// DrawnAs), and the wording of the forms' errors (InWords, Worded) are
// here too. Every number comes from core and compute; this package
// decides only how much is drawn, and how: HTML cells up to
// views.MaxDOMCells, canvases up to MaxInteractive, facts alone beyond.
//
// The package knows no HTTP and no explorer's page: each explorer is an
// explorer.Kind in its own package, which web/ and live/ serve.
package picture
