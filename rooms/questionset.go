package rooms

// Set questions ("tap every cell the slice reads"): the answer is a set of
// cells, which a student taps one by one and then sends. The server holds
// the exact set (the explorer's, from core) and judges each answer against
// it; the presenter sees the answers grouped as exact, missing some cells,
// with extra cells, or both, each slip the explorer can name by its own
// set, and how many picked each cell (the heat).

import (
	"cmp"
	"slices"
)

// NamedSet is a wrong set the explorer can name: Name is a key of the
// pages' words ("question.wrong.inclusiveEnd").
type NamedSet struct {
	Values []int64 `json:"values"`
	Name   string  `json:"name"`
}

// SetGroup is how many answers of a set question fell in one group:
// "exact", "missing" (some cells of the right set missing, none extra),
// "extra" (every right cell and more) or "both"; Name is the slip's, when
// the answer is exactly a set the explorer names.
type SetGroup struct {
	Group string `json:"group"`
	N     int    `json:"n"`
	Name  string `json:"name,omitempty"`
}

// The groups of a set question's answers.
const (
	GroupExact   = "exact"
	GroupMissing = "missing"
	GroupExtra   = "extra"
	GroupBoth    = "both"
)

// maxSetCells bounds a set question's range: its cells are tapped on a
// view drawn as cells (256 at most today), and its tally counts each.
const maxSetCells = 1 << 16

// answerable says whether a question asked carries an answer in its own
// range: a number, or a set of cells.
func (q *Question) answerable() bool {
	if q.Min > q.Max {
		return false
	}
	if !q.Set {
		return q.Correct != nil && *q.Correct >= q.Min && *q.Correct <= q.Max
	}
	if q.Max-q.Min >= maxSetCells || len(q.CorrectSet) == 0 || !slices.IsSorted(q.CorrectSet) {
		return false
	}
	return q.CorrectSet[0] >= q.Min && q.CorrectSet[len(q.CorrectSet)-1] <= q.Max
}

// check judges whether an answer is one q takes: a number in its range,
// or, for a set question, a set of at most as many cells as the view has
// (more is refused as abuse: a page never sends them), each in range. It
// returns the set sorted, each cell once.
func (q *Question) check(a Answer) ([]int64, error) {
	if !q.Set {
		if a.Set != nil || a.Value < q.Min || a.Value > q.Max {
			return nil, ErrAnswerInvalid
		}
		return nil, nil
	}
	if a.Set == nil {
		return nil, ErrAnswerInvalid
	}
	if int64(len(a.Set)) > q.Max-q.Min+1 {
		return nil, ErrAnswerTooMany
	}
	set := slices.Clone(a.Set)
	for _, v := range set {
		if v < q.Min || v > q.Max {
			return nil, ErrAnswerInvalid
		}
	}
	slices.Sort(set)
	return slices.Compact(set), nil
}

// groupOf is the group of a sorted set against the sorted right one.
func groupOf(set, right []int64) string {
	missing, extra := false, false
	i, j := 0, 0
	for i < len(set) || j < len(right) {
		switch {
		case j == len(right) || (i < len(set) && set[i] < right[j]):
			extra = true
			i++
		case i == len(set) || right[j] < set[i]:
			missing = true
			j++
		default:
			i++
			j++
		}
	}
	switch {
	case missing && extra:
		return GroupBoth
	case missing:
		return GroupMissing
	case extra:
		return GroupExtra
	}
	return GroupExact
}

// setTally groups a set question's answers against its right set (named
// where an answer is exactly a slip's set) and counts each cell's picks.
func setTally(answers map[string]answerMsg, q *Question) Tally {
	t := Tally{Question: q.ID, Counts: []ValueCount{}, Groups: []SetGroup{}, Picks: []ValueCount{}}
	type key struct{ group, name string }
	groups := map[key]int{}
	// The cells picked, counted densely: a set question's range is a
	// view drawn as cells (Answer refuses any pick outside it).
	picks := make([]int, q.Max-q.Min+1)
	for _, a := range answers {
		t.Answered++
		k := key{group: groupOf(a.Set, q.CorrectSet)}
		if k.group != GroupExact {
			for _, w := range q.WrongSets {
				if slices.Equal(w.Values, a.Set) {
					k.name = w.Name
					break
				}
			}
		}
		groups[k]++
		for _, v := range a.Set {
			if v >= q.Min && v <= q.Max {
				picks[v-q.Min]++
			}
		}
	}
	for k, n := range groups {
		t.Groups = append(t.Groups, SetGroup{Group: k.group, N: n, Name: k.name})
	}
	order := map[string]int{GroupExact: 0, GroupMissing: 1, GroupExtra: 2, GroupBoth: 3}
	slices.SortFunc(t.Groups, func(a, b SetGroup) int {
		return cmp.Or(b.N-a.N, order[a.Group]-order[b.Group], cmp.Compare(a.Name, b.Name))
	})
	for i, n := range picks {
		if n == 0 {
			continue
		}
		v := q.Min + int64(i)
		_, right := slices.BinarySearch(q.CorrectSet, v)
		t.Picks = append(t.Picks, ValueCount{Value: v, N: n, Right: right})
	}
	return t
}

// Question is the room's question as this replica has it (nil: none), with
// its answer: the presenter's own.
func (p *Presenter) Question() *Question {
	r := p.rooms
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[p.code]
	if !ok || rm.state.Question == nil {
		return nil
	}
	q := *rm.state.Question
	return &q
}

// AnswerSetOf is the set token's student answered room code's question
// with, as this replica has it (AnswerOf for a set question: a page
// without JavaScript says it back).
func (r *Replica) AnswerSetOf(code, token string) ([]int64, bool) {
	code, okc := NormalizeCode(code)
	id, tok := r.student(code, token)
	if !okc || tok != token {
		return nil, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, held := r.rooms[code]
	if !held || rm.state.Question == nil {
		return nil, false
	}
	m, ok := rm.answers[rm.state.Question.ID][id]
	return slices.Clone(m.Set), ok
}

// GroupOf is how a set answers q: GroupExact, GroupMissing, GroupExtra or
// GroupBoth (q's right set is known once revealed).
func GroupOf(q *Question, set []int64) string {
	s := slices.Compact(slices.Sorted(slices.Values(set)))
	return groupOf(s, q.CorrectSet)
}
