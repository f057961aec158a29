package web

import (
	"net/url"
	"testing"
)

// TestRoomBarNamesThePagesPath: a viewer's page at /r/CODE says in its
// bar which page it is (data-path), where static/rooms.js writes what a
// viewer explores on their own; every explorer's, not only the layout's
// and the slice's (a viewer exploring the padding page was sent to "/"),
// and a page explored keeps its own.
func TestRoomBarNamesThePagesPath(t *testing.T) {
	_, ts := roomServer(t, Config{})
	for _, tc := range []struct {
		page, query, step, want string
	}{
		{"layout", "sizes=2,3", "", "/"},
		{"slice", "sizes=4,4", "", "/slice"},
		{"padding", "sizes=3,3&start=1,1&end=1,1", "", "/padding"},
		{"tile", "sizes=2,3&repeats=2,2", "", "/tile"},
		{"depthspace", "op=d2s&sizes=1,8,2,3&block=2", "", "/depthspace"},
		{"joinsplit", "op=join&axis=1&in=2,3&st=&in=2,2&st=", "", "/joinsplit"},
		{"convert", "sizes=2,3", "", "/convert"},
		{"tour", "", "3", "/tour/3"},
	} {
		form := url.Values{"page": {tc.page}, "query": {tc.query}}
		if tc.step != "" {
			form.Set("step", tc.step)
		}
		code, _, _ := openRoomWith(t, ts, form)
		res, doc := getPage(t, ts.URL+"/r/"+code, nil)
		bar := doc.Find(tid("room-bar"))
		if got := bar.AttrOr("data-path", "(none)"); res.StatusCode != 200 || bar.AttrOr("data-role", "") != "viewer" || got != tc.want {
			t.Errorf("%s: %d, a %q bar whose path is %q, want a viewer's at %q", tc.page, res.StatusCode, bar.AttrOr("data-role", ""), got, tc.want)
		}
		var ticket string
		for _, c := range res.Cookies() {
			if c.Name == joinCookie(code) {
				ticket = c.Name + "=" + c.Value
			}
		}
		_, doc = getPage(t, ts.URL+tc.want+"?room="+code+"&explore", map[string][]string{"Cookie": {ticket}})
		if got := doc.Find(tid("room-bar")).AttrOr("data-path", "(none)"); got != tc.want {
			t.Errorf("%s explored: the bar's path is %q, want %q", tc.page, got, tc.want)
		}
	}
}
