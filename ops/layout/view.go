package layout

import "github.com/stridescope/stridescope/views"

// PageModel is the model of the live layout explorer page ("/").
type PageModel struct {
	Form    FormModel
	Presets []views.Preset
	// Picture is of the form's state when it is valid, otherwise of the
	// last valid state (or the default example); Stale then says so.
	Picture views.Picture
	Stale   string
	// LastValid is the canonical query of the picture, carried in the
	// form so that a bad submission keeps showing it.
	LastValid string
	// Answer, when set, is the websocket's answer to the picture's state
	// (docs/protocol.md), embedded so that the page links the cells it
	// shows without asking for them again; any value encoding/json takes.
	Answer any
	// Mount is where the explorer is shown: the tour and the embed
	// submit the form to themselves.
	views.Mount
}

// FormModel is the state of the inputs, as typed, with the errors of each.
type FormModel struct {
	DataType  string
	DataTypes []string
	Rank      int
	Packed    bool
	Rows      bool     // strides computed: Order, rows padded to Pitch
	Order     string   // "" for DirectML's own order
	Orders    []string // the named layouts; those of another rank disabled
	Pitch     string
	Dims      []DimRow // always views.MaxRank rows; the first Rank are Active (and rendered)
	Total     string
	Align     string
	Labels    string
	Sel       string // selected logical element, "1,0,1"
	Cell      string // selected buffer cell, "7"
	// Typed is the typed state's query when the rows cannot hold it
	// (more dimensions than MaxRank, or a list longer than the sizes):
	// the first live edit sends it rather than the rows, so that the
	// answer keeps the error instead of drawing the rows' state.
	Typed string
	// Errors and Warnings are keyed by the field names of the core rules
	// and the JSON API: dataType, rank, sizes, strides, sizes[1],
	// strides[0], totalTensorSizeInBytes, guaranteedBaseOffsetAlignment.
	Errors   map[string][]string
	Warnings map[string][]string
}

// DimRow is one dimension's row of inputs.
type DimRow struct {
	Index  int
	Label  string
	Size   string
	Stride string
	Active bool
}

// template is the form and row a views.DimTemplate is rendered from:
// row 0, empty, named views.DimTemplateLabel, without the form's errors.
func (f FormModel) template() (FormModel, DimRow) {
	f.Errors, f.Warnings = nil, nil
	return f, DimRow{Label: views.DimTemplateLabel}
}

// ErrorsFor returns the errors of one field.
func (f FormModel) ErrorsFor(field string) []string { return f.Errors[field] }

// WarningsFor returns the warnings of one field.
func (f FormModel) WarningsFor(field string) []string { return f.Warnings[field] }

// HasErrors reports whether any field has an error.
func (f FormModel) HasErrors() bool { return len(f.Errors) > 0 }

// origin is the address the page was served from, "" when not known.
func (m PageModel) origin() string {
	if m.Share == nil {
		return ""
	}
	return m.Share.Origin
}
