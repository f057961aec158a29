// Runs ONNX models with onnxruntime-node for interop's tests: one JSON
// case a line on stdin, {model (base64), type, dims, input (hex bytes)};
// one JSON answer a line on stdout, {dims, data (hex bytes)} or {error}.
// A model of several inputs or outputs (a join's Concat, a split's
// Split) is {model, inputs: [{name, type, dims, input}]}, answered
// {outputs: [{dims, data}]} in the model's output order.
const ort = require('onnxruntime-node');
const readline = require('readline');

const arrays = {
  float32: Float32Array, float16: Uint16Array, float64: Float64Array,
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
  int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
};

const tensorOf = (type, dims, hex) => {
  const raw = Buffer.from(hex, 'hex');
  return new ort.Tensor(type, new arrays[type](raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length)), dims);
};
const answerOf = (y) => ({ dims: y.dims, data: Buffer.from(y.data.buffer, y.data.byteOffset, y.data.byteLength).toString('hex') });

async function run(c) {
  const session = await ort.InferenceSession.create(Buffer.from(c.model, 'base64'));
  if (c.inputs) {
    const feeds = {};
    for (const i of c.inputs) feeds[i.name] = tensorOf(i.type, i.dims, i.input);
    const out = await session.run(feeds);
    return { outputs: session.outputNames.map((n) => answerOf(out[n])) };
  }
  const raw = Buffer.from(c.input, 'hex');
  const data = new arrays[c.type](raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length));
  const out = await session.run({ x: new ort.Tensor(c.type, data, c.dims) });
  const y = out.y;
  return { dims: y.dims, data: Buffer.from(y.data.buffer, y.data.byteOffset, y.data.byteLength).toString('hex') };
}

(async () => {
  for await (const line of readline.createInterface({ input: process.stdin })) {
    let answer;
    try {
      answer = await run(JSON.parse(line));
    } catch (e) {
      answer = { error: String(e) };
    }
    process.stdout.write(JSON.stringify(answer) + '\n');
  }
})();
