package web

// Answering without JavaScript: a student's page in a room draws the
// open question with a form that posts the answer (POST /r/CODE/answer);
// the reply page (GET /r/CODE/answer) says what became of it and, once
// the presenter reveals, the answer and the class's answers. The student
// token rides in an HttpOnly cookie, so that a reload or a second post
// changes the student's answer rather than adding one, and the form
// carries it too: a form from another site can forge neither.

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/rooms"
	"github.com/stridescope/stridescope/views"
)

func studentCookie(code string) string { return "stridescope_student_" + code }

// studentToken is the browser's student token in room code, minted (and
// set in its cookie) when it has none that is the room's.
func (s *Server) studentToken(c echo.Context, replica *rooms.Replica, code string) string {
	held := ""
	if ck, err := c.Request().Cookie(studentCookie(code)); err == nil {
		held = ck.Value
	}
	tok := replica.StudentToken(code, held)
	if tok != held {
		c.SetCookie(&http.Cookie{Name: studentCookie(code), Value: tok, Path: "/r/", MaxAge: int(rooms.Lifetime / time.Second),
			HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: isHTTPS(c.Request())})
	}
	return tok
}

// answerForm is the student's question panel for the room's state st, in
// the request's language; nil when the state asks nothing.
func answerForm(c echo.Context, replica *rooms.Replica, code string, st rooms.State, token string) *views.AnswerForm {
	ctx := c.Request().Context()
	a := &views.AnswerForm{Code: code, Student: token}
	q := st.Question.ForClass()
	if q == nil {
		return a
	}
	a.Question, a.Kind, a.Open, a.Revealed, a.Prompt = q.ID, q.Kind, q.Open, q.Revealed, questionPrompt(c, q)
	if q.Set {
		setAnswerForm(c, a, replica, code, q, token)
		return a
	}
	mine, answered := replica.AnswerOf(code, token)
	switch {
	case q.Revealed:
		if q.Correct != nil {
			a.Explain = i18n.T(ctx, "js.question.answer", i18n.Args{"v": shownAnswer(c, q, *q.Correct), "why": q.Explain})
		}
		if r := q.Result; r != nil {
			a.Answered = i18n.T(ctx, "js.question.answered", i18n.Args{"n": i18n.Grouped(ctx, r.Answered)})
			for _, n := range r.Counts {
				text := i18n.T(ctx, "js.question.count", i18n.Args{"v": shownAnswer(c, q, n.Value), "n": i18n.Grouped(ctx, n.N)})
				switch {
				case n.Right:
					text += " ✓ " + i18n.T(ctx, "js.question.right")
				case n.Name != "":
					text += " · " + i18n.T(ctx, i18n.Key("js."+n.Name))
				}
				a.Counts = append(a.Counts, views.AnswerCount{Text: text, Right: n.Right})
			}
		}
		if answered && q.Correct != nil {
			key := i18n.Key("js.question.yours.wrong")
			if mine == *q.Correct {
				key = "js.question.yours.right"
			}
			a.Status = i18n.T(ctx, key, i18n.Args{"v": shownAnswer(c, q, mine)})
		}
	case !q.Open:
		a.Status = i18n.T(ctx, "js.question.closed")
		if answered {
			a.Status = i18n.T(ctx, "room.q.closedYours", i18n.Args{"v": shownAnswer(c, q, mine)})
		}
	case answered:
		a.Status = i18n.T(ctx, "room.q.received", i18n.Args{"v": shownAnswer(c, q, mine)})
	}
	return a
}

// questionPrompt is the question in words, for a page that types its
// answer (no picture to tap).
func questionPrompt(c echo.Context, q *rooms.Question) string {
	ctx := c.Request().Context()
	coords := make([]string, len(q.Element))
	for i, e := range q.Element {
		coords[i] = strconv.FormatInt(e, 10)
	}
	args := i18n.Args{"c": strings.Join(coords, ", ")}
	switch q.Kind {
	case "cell":
		return i18n.T(ctx, "room.q.nojs.cell", args)
	case "offset":
		return i18n.T(ctx, "js.question.offset", args)
	case "bytes":
		return i18n.T(ctx, "js.question.bytes")
	case "element":
		if q.Cell != nil {
			return i18n.T(ctx, "room.q.nojs.element", i18n.Args{"o": i18n.Grouped(ctx, *q.Cell)})
		}
	case "reads":
		return i18n.T(ctx, "room.q.nojs.reads")
	case "source":
		return i18n.T(ctx, "room.q.nojs.source", args)
	case "maxcopied":
		if q.Axis != nil {
			return i18n.T(ctx, "js.question.maxcopied", i18n.Args{"a": *q.Axis})
		}
	}
	return i18n.T(ctx, "room.q.nojs.other")
}

// shownAnswer is an answer as the page writes it: a logical element by
// its coordinates, else the number.
func shownAnswer(c echo.Context, q *rooms.Question, v int64) string {
	if (q.Elements || q.Set) && len(q.Sizes) > 0 {
		coords := make([]string, len(q.Sizes))
		for d := len(q.Sizes) - 1; d >= 0; d-- {
			if q.Sizes[d] <= 0 {
				break
			}
			coords[d] = strconv.FormatInt(v%q.Sizes[d], 10)
			v /= q.Sizes[d]
		}
		return "(" + strings.Join(coords, ", ") + ")"
	}
	return i18n.Grouped(c.Request().Context(), v)
}

// typedAnswer reads a typed answer: a whole number, or for a question
// about an element its coordinates ("1,2", "(1, 2)"), as its row-major
// index. ok is false when it is neither.
func typedAnswer(q *rooms.Question, text string) (int64, bool) {
	text = strings.TrimSpace(text)
	if q.Elements && len(q.Sizes) > 0 {
		parts := strings.Split(strings.NewReplacer("(", "", ")", "", " ", "").Replace(text), ",")
		if len(parts) == len(q.Sizes) {
			var i int64
			for d, p := range parts {
				c, err := strconv.ParseInt(p, 10, 64)
				if err != nil || c < 0 || c >= q.Sizes[d] {
					return 0, false
				}
				i = i*q.Sizes[d] + c // below the element count, which the question's Max bounds
			}
			return i, true
		}
	}
	if len(text) > 18 {
		return 0, false
	}
	v, err := strconv.ParseInt(text, 10, 64)
	return v, err == nil && v >= 0
}

// getAnswer is the reply page of a student without JavaScript: the
// question, what became of their answer, the reveal.
func (s *Server) getAnswer(c echo.Context) error {
	r := c.Request()
	code, status, msg := s.findRoom(r.Context(), c.RealIP(), c.Param("code"), r)
	if status != http.StatusOK {
		return s.roomNotFound(c, status, msg)
	}
	replica, _ := s.roomsReady()
	st, err := replica.CurrentAttached(r.Context(), code)
	if err != nil {
		c.Response().Header().Set("Retry-After", "2")
		return renderJoin(c, http.StatusServiceUnavailable, views.Join{Code: code, Error: i18n.T(r.Context(), "join.err.reconnecting")})
	}
	a := answerForm(c, replica, code, st, s.studentToken(c, replica, code))
	return renderTranslated(c, http.StatusOK, views.AnswerPage(*a))
}

// postAnswer takes a student's answer posted by the form, and sends them
// to the reply page; a refused answer is shown on it, with the form
// filled in again, and a status that says why.
func (s *Server) postAnswer(c echo.Context) error {
	r := c.Request()
	ctx := r.Context()
	if !s.sameSitePost(r) {
		code, ok := rooms.NormalizeCode(c.Param("code"))
		if !ok {
			return s.roomNotFound(c, http.StatusNotFound, codeProblem(ctx, c.Param("code")))
		}
		return s.answerRefused(c, http.StatusForbidden, code, "room.q.refused.stale")
	}
	if err := parseForm(c); err != nil {
		return err
	}
	code, status, msg := s.findRoom(ctx, c.RealIP(), c.Param("code"), r)
	if status != http.StatusOK {
		return s.roomNotFound(c, status, msg)
	}
	replica, _ := s.roomsReady()
	// The form's token must be the cookie's, and the room's: a page from
	// another site, or one older than the cookie, answers for nobody.
	ck, err := r.Cookie(studentCookie(code))
	token := r.PostFormValue("student")
	if err != nil || token == "" || ck.Value != token || replica.StudentToken(code, token) != token {
		return s.answerRefused(c, http.StatusForbidden, code, "room.q.refused.stale")
	}
	st, err := replica.CurrentAttached(ctx, code)
	if err != nil {
		return s.answerRefused(c, http.StatusServiceUnavailable, code, "room.q.refused.reconnecting")
	}
	q := st.Question.ForClass()
	if q == nil || q.ID != r.PostFormValue("question") || !q.Open {
		return s.answerRefused(c, http.StatusConflict, code, "js.question.refused.closed")
	}
	answer := rooms.Answer{Question: q.ID, Nick: r.PostFormValue("nick")}
	if q.Set {
		set, ok := typedSet(q, r.PostFormValue("value"))
		if !ok {
			return s.answerRefused(c, http.StatusUnprocessableEntity, code, "room.q.badSet")
		}
		answer.Set = set
	} else {
		v, ok := typedAnswer(q, r.PostFormValue("value"))
		if !ok {
			key := i18n.Key("room.q.badValue")
			if q.Elements {
				key = "js.question.badElement"
			}
			return s.answerRefused(c, http.StatusUnprocessableEntity, code, key)
		}
		answer.Value = v
	}
	err = replica.AnswerAs(ctx, code, token, answer)
	switch {
	case errors.Is(err, rooms.ErrAnswerTooMany):
		return s.answerRefused(c, http.StatusUnprocessableEntity, code, "js.question.refused.too-many")
	case err == nil:
		return redirectKeepingLang(c, http.StatusSeeOther, "/r/"+code+"/answer")
	case errors.Is(err, rooms.ErrQuestionClosed):
		return s.answerRefused(c, http.StatusConflict, code, "js.question.refused.closed")
	case errors.Is(err, rooms.ErrAnswerInvalid):
		return s.answerRefused(c, http.StatusUnprocessableEntity, code, "js.question.refused.invalid")
	case errors.Is(err, rooms.ErrAnswerFlood):
		c.Response().Header().Set("Retry-After", "1")
		return s.answerRefused(c, http.StatusTooManyRequests, code, "js.question.refused.flood")
	case errors.Is(err, rooms.ErrNotYours):
		return s.answerRefused(c, http.StatusForbidden, code, "room.q.refused.stale")
	case errors.Is(err, rooms.ErrNoRoom):
		return s.roomNotFound(c, http.StatusNotFound, i18n.T(ctx, "join.err.none", i18n.Args{"code": views.DisplayCode(code)}))
	}
	s.log.Warn("rooms: an answer not stored", "room", code, "err", err)
	c.Response().Header().Set("Retry-After", "2")
	return s.answerRefused(c, http.StatusServiceUnavailable, code, "room.q.refused.reconnecting")
}

// answerRefused answers a refused post with the reply page: the room's
// question as it is now, the form filled in again, and why (key).
func (s *Server) answerRefused(c echo.Context, status int, code string, key i18n.Key) error {
	r := c.Request()
	a := &views.AnswerForm{Code: code}
	if replica, err := s.roomsReady(); err == nil {
		// The cookie's token, never a new one: a post from another site
		// comes without the cookie, and a new one set on its answer would
		// make the student someone else, whose next answer adds one.
		tok := ""
		if ck, err := r.Cookie(studentCookie(code)); err == nil && replica.StudentToken(code, ck.Value) == ck.Value {
			tok = ck.Value
		}
		if st, err := replica.Current(r.Context(), code); err == nil {
			a = answerForm(c, replica, code, st, tok)
		}
	}
	a.Value, a.Nick = r.PostFormValue("value"), r.PostFormValue("nick")
	a.Status, a.Refused = i18n.T(r.Context(), key), true
	return renderTranslated(c, status, views.AnswerPage(*a))
}

// roomNotFound is the join page saying why a code opens no room.
func (s *Server) roomNotFound(c echo.Context, status int, msg string) error {
	if status == http.StatusServiceUnavailable || status == http.StatusTooManyRequests {
		c.Response().Header().Set("Retry-After", "2")
	}
	return renderJoin(c, status, views.Join{Code: c.Param("code"), Error: msg})
}
