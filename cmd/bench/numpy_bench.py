"""NumPy reference for cmd/bench (embedded in the Go binary).

Prints {"numpy": version, "python": version}, then reads one JSON case per
line on stdin and answers each with one JSON line, so that cmd/bench can
time NumPy right after the Go run of the same case. A case names a view of
an arange buffer (the same bytes the Go side fills); the script checks that
the view's shape, strides and first element are those of the Go walk,
times np.copyto(out, view) interleaved with a contiguous np.copyto of the
same byte count (at least minReps pairs and minTime seconds) and answers
name, gbps (median), memcpyRatio (median of t_contiguous/t_view), reps,
checksum (decimal string) and error. A case with "fn": "ascontiguous" (a
layout conversion) is timed as np.ascontiguousarray(view), which allocates
its output on every call, and answers copytoGbps too: np.copyto into a
pre-faulted output, the same copy without the allocation (a view that is
C-contiguous already, which ascontiguousarray returns as it is, is timed
as view.copy()). A case with "fn": "pad" (a DML_PADDING1) is timed as
np.pad(view, widths, mode), which allocates its output on every call; the
contiguous copy it is interleaved with moves the output's byte count.
The checksum is sum((i*2654435761 + 1) * v_i) mod 2^64 over the output
elements read as unsigned integers, as cmd/bench computes it.
"""
import json
import sys
import time

import numpy as np

K = 2654435761
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def arange(n, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return np.arange(n, dtype=dt)
    # Unsigned element index, wrapped to the element size.
    return np.arange(n, dtype=np.uint64).astype(dt)


def checksum(out):
    flat = out.reshape(-1).view(UINT[out.itemsize])
    total = 0
    step = 1 << 20
    for start in range(0, flat.size, step):
        v = flat[start:start + step].astype(np.uint64)
        i = np.arange(start, start + v.size, dtype=np.uint64)
        total = (total + int(np.sum((i * np.uint64(K) + np.uint64(1)) * v, dtype=np.uint64))) % (1 << 64)
    return total


def median(v):
    v = sorted(v)
    return v[len(v) // 2]


def timed(mem, fn, min_reps, min_time, batch):
    """Interleaves mem (a contiguous copy of the same byte count) and fn, as
    the Go side does; returns the median time of fn, the median of
    t_mem/t_fn and the number of pairs."""
    tm, tc = [], []
    start = time.perf_counter()
    while len(tc) < min_reps or time.perf_counter() - start < min_time:
        t0 = time.perf_counter_ns()
        for _ in range(batch):
            mem()
        t1 = time.perf_counter_ns()
        for _ in range(batch):
            fn()
        t2 = time.perf_counter_ns()
        tm.append((t1 - t0) / batch)
        tc.append((t2 - t1) / batch)
        if len(tc) >= 20000 or time.perf_counter() - start > 40 * max(min_time, 0.05):
            break
    return median(tc), median([m / c for m, c in zip(tm, tc)]), len(tc)


def run_case(c, buffers):
    res = {"name": c["name"], "gbps": None, "memcpyRatio": None, "copytoGbps": None, "reps": 0, "checksum": None,
           "error": None}
    try:
        key = (c["dtype"], c["n"])
        if key not in buffers:
            buffers.clear()
            buffers[key] = arange(c["n"], c["dtype"])
        flat = buffers[key]
        env = {"np": np, "flat": flat}
        exec(c["setup"], env)
        view = eval(c["expr"], env)
        item = view.itemsize
        if list(view.shape) != c["shape"]:
            raise ValueError("shape %s, Go walks %s" % (view.shape, c["shape"]))
        want = [s * item for s in c["strides"]]
        if list(view.strides) != want and view.size > 1:
            raise ValueError("strides %s, Go walks %s" % (view.strides, want))
        first = view.__array_interface__["data"][0] - flat.__array_interface__["data"][0]
        if first != c["base"] * item:
            raise ValueError("first element at byte %d, Go reads %d" % (first, c["base"] * item))
        if c.get("fn") == "pad":
            return run_pad(c, view, flat, res)
        out = np.empty(view.shape, dtype=view.dtype)
        out.fill(0)  # fault the pages in
        np.copyto(out, view)
        ascontiguous = c.get("fn") == "ascontiguous"
        if ascontiguous:
            res["checksum"] = str(checksum(np.ascontiguousarray(view)))
        else:
            res["checksum"] = str(checksum(out))
        nbytes = out.nbytes
        batch = max(1, int(2e5 // max(nbytes, 1))) if nbytes < (1 << 16) else 1
        mout, msrc = out.reshape(-1), flat[:out.size]
        mem = lambda: np.copyto(mout, msrc)
        if ascontiguous:
            med, _, _ = timed(mem, lambda: np.copyto(out, view), c["minReps"], c["minTime"], batch)
            res["copytoGbps"] = nbytes / med
            # ascontiguousarray returns a view that is C-contiguous
            # already as it is: then a copy, which it would make.
            conv = (lambda: view.copy()) if view.flags.c_contiguous else (lambda: np.ascontiguousarray(view))
            med, ratio, reps = timed(mem, conv, c["minReps"], c["minTime"], batch)
        else:
            med, ratio, reps = timed(mem, lambda: np.copyto(out, view), c["minReps"], c["minTime"], batch)
        res["gbps"] = nbytes / med
        res["memcpyRatio"] = ratio
        res["reps"] = reps
    except Exception as exc:  # reported per case, not fatal
        res["error"] = "%s: %s" % (type(exc).__name__, exc)
    return res


def run_pad(c, view, flat, res):
    """Times np.pad(view) against a contiguous copy of the output's size."""
    widths, mode = [tuple(w) for w in c["pad"]["widths"]], c["pad"]["mode"]
    pad = lambda: np.pad(view, widths, mode=mode)
    out = pad()
    res["checksum"] = str(checksum(out))
    nbytes = out.nbytes
    if flat.nbytes < nbytes:
        raise ValueError("output of %d bytes, buffer of %d" % (nbytes, flat.nbytes))
    mout, msrc = np.empty_like(out).reshape(-1), flat[:out.size]
    mout.fill(0)
    med, ratio, reps = timed(lambda: np.copyto(mout, msrc), pad, c["minReps"], c["minTime"], 1)
    res["gbps"], res["memcpyRatio"], res["reps"] = nbytes / med, ratio, reps
    return res


def main():
    print(json.dumps({"numpy": np.__version__, "python": sys.version.split()[0]}), flush=True)
    buffers = {}
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(run_case(json.loads(line), buffers)), flush=True)


if __name__ == "__main__":
    main()
