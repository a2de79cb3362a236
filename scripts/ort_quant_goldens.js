// ONNX Runtime's outputs for the models of scripts/gen_ort_quant_models.py:
// for every <name>.onnx with a <name>.input.npy in the directory, runs each
// sample (batch 1) through onnxruntime-node's CPU provider with graph
// optimizations disabled (the model's own kernels: QLinearConv, QGemm,
// ConvInteger, ...) and writes the outputs stacked to <name>.ort.npy.
//
// Usage: node scripts/ort_quant_goldens.js <onnxruntime-node dir> <dir>
//   (install it with: mkdir -p /tmp/ort && cd /tmp/ort &&
//    ONNXRUNTIME_NODE_INSTALL=skip npm install onnxruntime-node@1.30)
'use strict';
const fs = require('fs');
const path = require('path');

const [ortDir, dir] = process.argv.slice(2);
if (!ortDir || !dir) {
  process.stderr.write('usage: ort_quant_goldens.js <onnxruntime-node dir> <dir>\n');
  process.exit(1);
}
const ort = require(path.resolve(ortDir, 'node_modules', 'onnxruntime-node'));

function readNpy(file) {
  const buf = fs.readFileSync(file);
  const headerLen = buf.readUInt16LE(8);
  const header = buf.toString('latin1', 10, 10 + headerLen);
  if (!header.includes("'<f4'")) throw new Error(`${file}: not float32`);
  const shape = header.match(/'shape':\s*\(([^)]*)\)/)[1]
    .split(',').map((s) => s.trim()).filter((s) => s).map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(count);
  for (let i = 0; i < count; ++i) data[i] = buf.readFloatLE(10 + headerLen + 4 * i);
  return { shape, data };
}

function writeNpy(file, shape, data) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  header += ' '.repeat((64 - ((11 + header.length) % 64)) % 64) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head.writeUInt16LE(header.length, 8);
  fs.writeFileSync(file, Buffer.concat([head, Buffer.from(header, 'latin1'),
    Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

async function main() {
  for (const file of fs.readdirSync(dir).sort()) {
    if (!file.endsWith('.onnx')) continue;
    const name = file.slice(0, -5);
    const input = path.join(dir, `${name}.input.npy`);
    if (!fs.existsSync(input)) continue;
    const s = await ort.InferenceSession.create(path.join(dir, file), {
      executionProviders: ['cpu'], intraOpNumThreads: 1,
      graphOptimizationLevel: 'disabled', logSeverityLevel: 3,
    });
    const { shape, data } = readNpy(input);
    const per = data.length / shape[0];
    const inShape = [1, ...shape.slice(1)];
    const parts = [];
    let outShape;
    for (let i = 0; i < shape[0]; ++i) {
      const x = new ort.Tensor('float32', data.slice(i * per, (i + 1) * per), inShape);
      const y = (await s.run({ [s.inputNames[0]]: x }))[s.outputNames[0]];
      outShape = y.dims.slice();
      parts.push(Float32Array.from(y.data));
    }
    const all = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
    parts.forEach((p, i) => all.set(p, i * p.length));
    outShape[0] *= parts.length;
    writeNpy(path.join(dir, `${name}.ort.npy`), outShape, all);
    console.log(`${name}: ${outShape.join('x')}`);
  }
}
main().catch((e) => { process.stderr.write(`${e.message}\n`); process.exit(1); });
