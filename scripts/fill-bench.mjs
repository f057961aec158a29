// The page's share of a 2^24-element slice edit: the four arrays the slice
// page computes from the result's meta (protocol v2), timed in Node's V8.
//
//	node scripts/fill-bench.mjs
import { offsetsOf } from '../static/live.js';
import { fillInput, sliceOutput, cellCounts } from '../static/fill.js';

const meta = { sizes: [4096, 4096], strides: [4096, 1], inputCount: 1 << 24, cells: 1 << 24, dataType: 'FLOAT32',
  outputSizes: [4096, 4096], outputCount: 1 << 24, windowStrides: [1, 1], copyStart: [0, 0] };
for (let run = 1; run <= 3; run++) {
  const t0 = performance.now(), off = offsetsOf(meta.sizes, meta.strides, meta.inputCount);
  const t1 = performance.now(), buf = fillInput(meta, off);
  const t2 = performance.now(); sliceOutput(meta, buf);
  const t3 = performance.now(); cellCounts(meta.cells, off);
  const t4 = performance.now(), ms = (a, b) => (b - a).toFixed(0);
  console.log(`run ${run}: offsets ${ms(t0, t1)} ms, input buffer ${ms(t1, t2)} ms, output ${ms(t2, t3)} ms, counts ${ms(t3, t4)} ms`);
}
