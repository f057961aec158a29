package main

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

//go:embed numpy_bench.py
var numpyScript []byte

// numpyCase is one answer of the script.
type numpyCase struct {
	Name   string   `json:"name"`
	GBps   *float64 `json:"gbps"`
	Memcpy *float64 `json:"memcpyRatio"`
	// CopytoGBps: for "fn": "ascontiguous" cases, np.copyto(out, view)
	// timed beside np.ascontiguousarray(view) (GBps).
	CopytoGBps *float64 `json:"copytoGbps"`
	Reps       int      `json:"reps"`
	Checksum   string   `json:"checksum"`
	Error      string   `json:"error"`
}

// numpyProc is the python3 process that times NumPy case by case, right
// after the Go run of the same case.
type numpyProc struct {
	version string
	cmd     *exec.Cmd
	in      io.WriteCloser
	out     *bufio.Scanner
	script  string
	o       options
}

// findPython returns the first of /usr/bin/python3 and the python3 on PATH
// (or the interpreter the -python flag names) that imports numpy.
func findPython(want string) (string, string) {
	if want == "none" {
		return "", "-python none"
	}
	var tried []string
	candidates := []string{"/usr/bin/python3", "python3"}
	if want != "" {
		candidates = []string{want}
	}
	for _, p := range candidates {
		path, err := exec.LookPath(p)
		if err != nil {
			tried = append(tried, p+": not found")
			continue
		}
		if err := exec.Command(path, "-c", "import numpy").Run(); err != nil {
			tried = append(tried, path+": no numpy")
			continue
		}
		return path, ""
	}
	return "", strings.Join(tried, "; ")
}

// startNumpy starts the script; without python3 or NumPy it returns a
// process that answers nothing, after a note on stderr.
func startNumpy(o options) *numpyProc {
	np := &numpyProc{version: "NumPy: none", o: o}
	py, why := findPython(o.python)
	if py == "" {
		fmt.Fprintf(os.Stderr, "bench: note: no python3 with numpy (%s); numpyRatio is null (Debian: apt-get install python3-numpy)\n", why)
		return np
	}
	f, err := os.CreateTemp("", "stridescope-numpy-*.py")
	if err == nil {
		_, err = f.Write(numpyScript)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		np.script = f.Name()
	}
	if err == nil {
		np.cmd = exec.Command(py, np.script)
		np.cmd.Stderr = os.Stderr
		if np.in, err = np.cmd.StdinPipe(); err == nil {
			var out io.ReadCloser
			if out, err = np.cmd.StdoutPipe(); err == nil {
				np.out = bufio.NewScanner(out)
				np.out.Buffer(make([]byte, 1<<16), 1<<20)
				err = np.cmd.Start()
			}
		}
	}
	if err == nil {
		var v struct{ Numpy, Python string }
		if !np.out.Scan() {
			err = fmt.Errorf("no answer from %s", py)
		} else if err = json.Unmarshal(np.out.Bytes(), &v); err == nil {
			np.version = fmt.Sprintf("NumPy %s (Python %s, %s)", v.Numpy, v.Python, py)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: note: starting the NumPy reference: %v; numpyRatio is null\n", err)
		np.close()
		np.cmd = nil
	}
	return np
}

// run times one case; ok is false when there is no NumPy.
func (np *numpyProc) run(c *benchCase) (numpyCase, bool) {
	if np.cmd == nil {
		return numpyCase{}, false
	}
	req := map[string]any{
		"name": c.name, "dtype": numpyDtype(c.dtype), "n": c.n, "setup": c.setup, "expr": c.expr,
		"shape": c.walk.Sizes, "strides": c.walk.Strides, "base": c.walk.Base,
		"minReps": np.o.minPairs, "minTime": np.o.minTime.Seconds(),
	}
	if c.class == classID {
		req["fn"] = "ascontiguous"
	}
	if c.class == classPad {
		req["fn"], req["pad"] = "pad", c.padArgs
	}
	line, err := json.Marshal(req)
	if err == nil {
		_, err = np.in.Write(append(line, '\n'))
	}
	var res numpyCase
	if err == nil {
		if !np.out.Scan() {
			err = fmt.Errorf("the NumPy script stopped answering")
		} else {
			err = json.Unmarshal(np.out.Bytes(), &res)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: note: NumPy reference: %v; numpyRatio is null from here on\n", err)
		np.close()
		np.cmd = nil
		return numpyCase{}, false
	}
	return res, true
}

func (np *numpyProc) close() {
	if np.cmd != nil && np.in != nil {
		np.in.Close()
		_ = np.cmd.Wait()
	}
	if np.script != "" {
		os.Remove(np.script)
	}
}
