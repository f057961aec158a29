package convert

import (
	"context"
	"net/url"
	"testing"
)

// TestScaleBiasValues: the ScaleBias line works g(x) = x × Scale + Bias
// out on 1, 2, ... through compute.IdentityOf, in the data type:
// FLOAT16 rounds to a half (printed as its shortest decimal), FLOAT64
// shows Scale as the FLOAT it is, an integer type gets the note.
func TestScaleBiasValues(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{"preset=scalebias", "In FLOAT32, the values {1, 2, 3, 4, 5, 6} become {3, 5, 7, 9, 11, 13}: computed with Scale and Bias as FLOATs and rounded to FLOAT32, as the copy does."},
		// 1000.1 and 1000.2 round to the half 1000, 1000.3 to 1000.5 (halves are 0.5 apart there).
		{"dt=FLOAT16&sizes=2,3&imode=packed&omode=WH&scale=0.1&bias=1000", "In FLOAT16, the values {1, 2, 3, 4, 5, 6} become {1000, 1000, 1000.5, 1000.5, 1000.5, 1000.5}: computed with Scale and Bias as FLOATs and rounded to FLOAT16, as the copy does."},
		{"dt=FLOAT16&sizes=2&scale=0.1&bias=0", "In FLOAT16, the values {1, 2} become {0.1, 0.2}: computed with Scale and Bias as FLOATs and rounded to FLOAT16, as the copy does."},
		{"dt=FLOAT64&sizes=9&scale=0.1&bias=0", "In FLOAT64, the values {1, 2, 3, 4, 5, 6, …} become {0.10000000149011612, 0.20000000298023224, 0.30000000447034836, 0.4000000059604645, 0.5000000074505806, 0.6000000089406967, …}: computed with Scale and Bias as FLOATs and rounded to FLOAT64, as the copy does."},
		{"dt=INT8&sizes=4&scale=2&bias=1", "DirectML's pages do not say how an integer result of x × Scale + Bias is rounded or saturated, so no value is worked out here."},
		{"preset=transpose", ""},
	} {
		q, err := url.ParseQuery(c.query)
		if err != nil {
			t.Fatal(err)
		}
		v := Validate(StateFromQuery(q))
		if v.ID == nil {
			t.Fatalf("%s: %v", c.query, v.Errors)
		}
		if got := scaleBiasValues(context.Background(), v.ID); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.query, got, c.want)
		}
	}
}
