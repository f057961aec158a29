// Runs ONNX models in ONNX Runtime for compute's tests: one JSON case a
// line on stdin ({model: base64 ONNX model, type: "float32" | "float64",
// sizes: the input's}), the input an arange of its element count; one
// JSON line out: the output's values, row-major, or {error}.
import { createInterface } from 'node:readline';
import ort from 'onnxruntime-node';

const arrays = { float32: Float32Array, float64: Float64Array };
for await (const line of createInterface({ input: process.stdin })) {
  try {
    const c = JSON.parse(line);
    const session = await ort.InferenceSession.create(Buffer.from(c.model, 'base64'));
    const n = c.sizes.reduce((a, b) => a * b, 1);
    const x = arrays[c.type].from({ length: n }, (_, i) => i);
    const out = await session.run({ x: new ort.Tensor(c.type === 'float64' ? 'float64' : 'float32', x, c.sizes) });
    console.log(JSON.stringify({ values: Array.from(out.y.data), dims: out.y.dims }));
  } catch (e) {
    console.log(JSON.stringify({ error: String(e) }));
  }
}
