package picture

import (
	"errors"
	"net/url"

	"github.com/stridescope/stridescope/core"
)

// QueryDetail is why url.ParseQuery refused a query, as a message by
// code; English reads as net/url writes it.
func QueryDetail(err error) core.Msg {
	var ee url.EscapeError
	switch {
	case errors.As(err, &ee):
		return core.NewMsg("query.detail.escape", "invalid URL escape {escape:q}", core.Args{"escape": string(ee)})
	case err.Error() == "invalid semicolon separator in query":
		return core.NewMsg("query.detail.semicolon", "invalid semicolon separator in query", nil)
	}
	return core.NewMsg("json.detail.other", "{text}", core.Args{"text": err.Error()})
}
