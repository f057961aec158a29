// stridescope: the formulas a data-movement explorer's step-through
// writes (copy-steps.js), each with its numbers: the index map of the
// operator's DirectML page for output element k. The input coordinate a
// caption ends on is always the server's (the meta's sources and views,
// the grids' links), handed in as from; the arithmetic before it spells
// out how the operator's rule reaches it, from the answer's steps
// (ops/<op>/steps.go). The formulas are DirectML's names and numbers;
// the only words, the padding value's, come from the catalog.

import { t } from './words.js';
import { coordOf } from './layout.js';

const MINUS = '\u2212';
// n writes an integer with a real minus sign, as the formulas do.
const n = (x) => (x < 0 ? MINUS + -x : String(x));
const at = (c) => `{${c.map(n).join(',')}}`;
const terms = (ts) => `{${ts.join(', ')}}`;
const mod = (a, m) => ((a % m) + m) % m;
const diff = (a, b) => `${n(a)} ${MINUS} ${n(b)}`;

// padTerm is axis d's input coordinate for output coordinate o under
// DML_PADDING_MODE mode (core.PadSource): its arithmetic and its value.
function padTerm(mode, o, start, size) {
  const k = o - start, x = `(${diff(o, start)})`;
  switch (mode) {
    case 'EDGE': return `min(max(${diff(o, start)}, 0), ${size - 1})`;
    case 'REFLECTION': {
      if (size === 1) return '0';
      const p = 2 * (size - 1);
      return mod(k, p) < size ? `${x} mod ${p}` : `${p} ${MINUS} ${x} mod ${p}`;
    }
    case 'SYMMETRIC': {
      const p = 2 * size;
      return mod(k, p) < size ? `${x} mod ${p}` : `${p - 1} ${MINUS} ${x} mod ${p}`;
    }
    case 'WRAP': return `${x} mod ${size}`;
  }
  return diff(o, start);
}

// paddingLines: DML_PADDING1's output element k (s the answer's steps)
// reads input coordinate from, or the padding value (from null; value
// as the cell shows it).
export function paddingLines(s, k, from, value) {
  const c = coordOf(s.outSizes, k), out = `Output[${at(c)}]`;
  if (from === null) {
    const ks = c.map((o, d) => o - s.start[d]);
    return [t('js.copysteps.pad', { out, expr: `${terms(c.map((o, d) => diff(o, s.start[d])))} = ${at(ks)}`, value })];
  }
  const ts = c.map((o, d) => padTerm(s.mode, o, s.start[d], s.inSizes[d]));
  return [`${out} = Input[${terms(ts)}]`, `= Input[${at(from)}]`];
}

// tileLines: DML_TILE's output element k reads o mod InputSizes per axis.
export function tileLines(s, k, from) {
  const c = coordOf(s.outSizes, k);
  return [`Output[${at(c)}] = Input[${terms(c.map((o, d) => `${o} mod ${s.inSizes[d]}`))}] = Input[${at(from)}]`];
}

// depthSpaceLines: output element k of both orders (DML_DEPTH_SPACE_ORDER
// DEPTH_COLUMN_ROW and COLUMN_ROW_DEPTH), from.dcr and from.crd the input
// coordinates each reads. Depth-to-space: bh = h mod B, bw = w mod B and
// the input channel (bh·B + bw)·C_out + c (DCR) or c·B² + bh·B + bw (CRD);
// space-to-depth the reverse: the output channel is one of those, its
// parts found by div and mod.
export function depthSpaceLines(s, k, from) {
  const B = s.block, c = coordOf(s.outSizes, k), [, ch, h, w] = c, B2 = B * B;
  const lines = [`Output[${at(c)}]`];
  if (s.op === 'depthToSpace') {
    const bh = h % B, bw = w % B, C = s.outSizes[1];
    lines[0] += `: bh = ${h} mod ${B} = ${bh}, bw = ${w} mod ${B} = ${bw}`;
    const line = (o, f, v) => `${o.toUpperCase()}: c_in = ${f} = ${v}; Input[{${c[0]}, ${v}, ${h} div ${B}, ${w} div ${B}}] = Input[${at(from[o])}]`;
    lines.push(line('dcr', `(bh·B + bw)·C_out + c = (${bh}·${B} + ${bw})·${C} + ${ch}`, (bh * B + bw) * C + ch));
    lines.push(line('crd', `c·B² + bh·B + bw = ${ch}·${B2} + ${bh}·${B} + ${bw}`, ch * B2 + bh * B + bw));
    return lines;
  }
  const C = s.inSizes[1], blk = Math.floor(ch / C), r = ch % B2;
  const input = (o, cin, bh, bw, f) => `${f}; Input[{${c[0]}, ${cin}, ${h}·${B} + ${bh}, ${w}·${B} + ${bw}}] = Input[${at(from[o])}]`;
  lines.push('DCR: c = (bh·B + bw)·C_in + c_in: ' + input('dcr', ch % C, Math.floor(blk / B), blk % B,
    `c_in = ${ch} mod ${C} = ${ch % C}, bh = (${ch} div ${C}) div ${B} = ${Math.floor(blk / B)}, bw = (${ch} div ${C}) mod ${B} = ${blk % B}`));
  lines.push('CRD: c = c_in·B² + bh·B + bw: ' + input('crd', Math.floor(ch / B2), Math.floor(r / B), ch % B,
    `c_in = ${ch} div ${B2} = ${Math.floor(ch / B2)}, bh = (${ch} mod ${B2}) div ${B} = ${Math.floor(r / B)}, bw = ${ch} mod ${B} = ${ch % B}`));
  return lines;
}

// joinLines: a join's output cell at coordinate c reads input `which` at
// from, its start along the axis subtracted; a split's output `which`
// reads the input at from, its start added.
export function joinLines(s, which, c, from) {
  const a = s.axis, start = s.starts[which];
  const shift = (sign) => terms(c.map((v, d) => (d !== a ? n(v) : `${n(v)} ${sign} ${n(start)}`)));
  if (s.op === 'split') return [`OutputTensors[${which}][${at(c)}] = InputTensor[${shift('+')}] = InputTensor[${at(from)}]`];
  return [`OutputTensor[${at(c)}] = InputTensors[${which}][${shift(MINUS)}] = InputTensors[${which}][${at(from)}]`];
}
