package views

import (
	"context"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/i18n"
)

// Roles on a room bar.
const (
	RolePresenter = "presenter"
	RoleViewer    = "viewer"
)

// RoomBar is what a page shows about the classroom room it is in: to the
// presenter the code, the join URL, its QR code and how many watch; to a
// viewer the code and the buttons to detach and rejoin.
type RoomBar struct {
	Role     string
	Code     string // 8 symbols, shown as ABCD-2345
	Page     string // the page shown: an explorer's name or tour
	Step     int    // the tour's step, which is in the page's path
	Path     string // the page's own path, where a viewer at /r/CODE explores (static/rooms.js path)
	JoinURL  string // presenter: the absolute URL viewers open, as shown
	JoinLink string // presenter: JoinURL with the room's join ticket, for the link and the QR code
	QR       QRCode // presenter: JoinLink as a QR code
	JoinPage string // presenter: the absolute address of /join, where a code is typed
	Watching int
	// Exploring: a viewer who left the room's page for one of their own
	// (another tour step, an edit kept across a reload); the bar offers
	// to follow again.
	Exploring bool
	LeaveURL  string // presenter: the same page outside the room
	Hint      string // presenter: why the class may not reach JoinURL
	// Questions are the kinds of question the presenter may ask about
	// the page (its explorer's, explorer.Questioner): none, no controls.
	Questions []string
	// TourAsk is the tour step's own question as the presenter's bar
	// asks it (the "ask" of a "question" message, JSON): "" none.
	TourAsk string
	// Answer is a viewer's question panel drawn by the server (nil: the
	// script fills it).
	Answer *AnswerForm
}

// QRCode is a QR symbol drawn as one SVG path of unit squares.
type QRCode struct {
	Size int    // modules on a side, quiet zone included
	Path string // the dark modules
}

// PresentForm is the "Present this" button: the page and the state to
// open a room with.
type PresentForm struct {
	Page  string
	Step  int // the tour's step
	Query string
}

// RoomContext is what the server tells the page frame about rooms for one
// request: the room bar to show, or the button that opens a room.
type RoomContext struct {
	Bar     *RoomBar
	Present *PresentForm
	// Ended is the code of the room this browser has just ended: the
	// page says so, once.
	Ended string
}

type roomKey struct{}

// WithRoom attaches the room context to a request's context; Page reads it.
func WithRoom(ctx context.Context, rc RoomContext) context.Context {
	return context.WithValue(ctx, roomKey{}, rc)
}

// RoomFrom returns the room context of a request, if any.
func RoomFrom(ctx context.Context) (RoomContext, bool) {
	rc, ok := ctx.Value(roomKey{}).(RoomContext)
	return rc, ok
}

func roomFrom(ctx context.Context) RoomContext {
	rc, _ := RoomFrom(ctx)
	return rc
}

// DisplayCode splits a code in two halves to read aloud: ABCD-2345.
func DisplayCode(code string) string {
	if len(code) != 8 {
		return code
	}
	return code[:4] + "-" + code[4:]
}

// Join is the model of the page where a viewer types a room code.
type Join struct {
	Code  string // as typed
	Error string
}

// questionKind names a kind of question in the presenter's controls.
func questionKind(ctx context.Context, kind string) string {
	switch kind {
	case "cell":
		return i18n.T(ctx, "room.q.kind.cell")
	case "offset":
		return i18n.T(ctx, "room.q.kind.offset")
	case "bytes":
		return i18n.T(ctx, "room.q.kind.bytes")
	case "element":
		return i18n.T(ctx, "room.q.kind.element")
	case "reads":
		return i18n.T(ctx, "room.q.kind.reads")
	case "maxcopied":
		return i18n.T(ctx, "room.q.kind.maxcopied")
	case "source":
		return i18n.T(ctx, "room.q.kind.source")
	}
	return kind
}

// AnswerForm is a student's question panel as the server draws it, for a
// page without JavaScript: the question in words, a form that posts the
// answer (POST /r/CODE/answer) and what has become of it. With
// JavaScript, static/questions.js takes the same panel over.
type AnswerForm struct {
	Code     string
	Question string // the question's id; "" none is asked
	Kind     string // the explorer's kind of question
	Prompt   string // the question, in the page's language
	Open     bool
	Revealed bool
	// Student is the page's student token: the form posts it back, and
	// it must match the cookie (a form from another site knows neither).
	Student string
	// Value and Nick fill the form in again (after a refusal).
	Value, Nick string
	// Status says what became of the student's answer; Refused marks a
	// refusal, for the colour and the alert role.
	Status  string
	Refused bool
	// The reveal: the answer with its working, how many answered, and
	// every answer given.
	Explain  string
	Answered string
	Counts   []AnswerCount
}

// AnswerCount is one answer of the class, at the reveal: Text says it
// with how many gave it.
type AnswerCount struct {
	Text  string
	Right bool
}

// askingAttrs marks the body while the viewer's question is open and not
// revealed, so that rooms.css hides what would give the answer away on a
// page without JavaScript too (questions.js keeps it after).
func askingAttrs(ctx context.Context) templ.Attributes {
	if b := roomFrom(ctx).Bar; b != nil && b.Answer != nil && b.Answer.Question != "" && !b.Answer.Revealed {
		return templ.Attributes{"data-asking": b.Answer.Kind}
	}
	return nil
}

// answerFormAttrs make the answer form post to the server when the
// server drew it; the script's form posts nothing.
func answerFormAttrs(a *AnswerForm) templ.Attributes {
	if a == nil {
		return nil
	}
	return templ.Attributes{"method": "post", "action": "/r/" + a.Code + "/answer"}
}

func answerValue(a *AnswerForm) string {
	if a == nil {
		return ""
	}
	return a.Value
}

func answerNick(a *AnswerForm) string {
	if a == nil {
		return ""
	}
	return a.Nick
}

// concealing says that the page is a student's while a question its
// cells' names would answer is open (their names say offsets and the
// elements held; a size in bytes they do not give away).
func concealing(ctx context.Context) bool {
	b := roomFrom(ctx).Bar
	return b != nil && b.Answer != nil && b.Answer.Question != "" && b.Answer.Open && !b.Answer.Revealed && b.Answer.Kind != "bytes"
}

// hiddenLogicalName is a logical cell's name while a question is open:
// the label it shows and its coordinates, not its offset. The real name
// waits in data-aria, which static/questions.js gives back at the reveal
// (as it does for the names it hides itself).
func hiddenLogicalName(c LogicalCell) string {
	name := "(" + c.Coord + ")"
	// An output's values are the input's it copied: they would tell which
	// input cells a slice reads (static/questions.js hides them alike).
	if c.Label != "" && c.Grid != "out" {
		name = c.Label + ", " + name
	}
	return name
}
