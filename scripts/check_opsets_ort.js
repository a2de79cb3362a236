// Checks the NumPy references of scripts/gen_opset_tests.py against ONNX
// Runtime: runs every <name>.onnx of test/Import/Inputs/opsets on its
// <name>.input.npy with onnxruntime-node's CPU provider and prints
// max |ort - ref| / max |ref| per model; exits 1 when one exceeds 1e-5.
//
// Usage: node scripts/check_opsets_ort.js <onnxruntime-node dir>
//   (install it with: mkdir -p /tmp/ort && cd /tmp/ort &&
//    ONNXRUNTIME_NODE_INSTALL=skip npm install onnxruntime-node@1.30)
'use strict';
const fs = require('fs');
const path = require('path');

const [ortDir] = process.argv.slice(2);
if (!ortDir) {
  process.stderr.write('usage: check_opsets_ort.js <onnxruntime-node dir>\n');
  process.exit(1);
}
const ort = require(path.resolve(ortDir, 'node_modules', 'onnxruntime-node'));
const dir = path.join(__dirname, '..', 'test', 'Import', 'Inputs', 'opsets');

function readNpy(file) {
  const b = fs.readFileSync(file);
  const headerLength = b.readUInt16LE(8);
  const header = b.toString('latin1', 10, 10 + headerLength);
  if (!header.includes("'<f4'"))
    throw new Error(file + ': not float32');
  const shape = header.match(/'shape': \(([^)]*)\)/)[1].split(',')
                    .filter((s) => s.trim()).map(Number);
  const start = b.byteOffset + 10 + headerLength;
  return {shape, data: new Float32Array(b.buffer.slice(start, b.byteOffset + b.length))};
}

(async () => {
  let failed = false;
  const names = fs.readdirSync(dir).filter((f) => f.endsWith('.onnx'))
                    .map((f) => f.slice(0, -5)).sort();
  for (const name of names) {
    const session = await ort.InferenceSession.create(path.join(dir, name + '.onnx'));
    const x = readNpy(path.join(dir, name + '.input.npy'));
    const ref = readNpy(path.join(dir, name + '.output.npy'));
    const out = await session.run({x: new ort.Tensor('float32', x.data, x.shape)});
    const y = out[session.outputNames[0]].data;
    let err = 0, scale = 0;
    for (let i = 0; i < ref.data.length; ++i) {
      err = Math.max(err, Math.abs(y[i] - ref.data[i]));
      scale = Math.max(scale, Math.abs(ref.data[i]));
    }
    const ok = y.length === ref.data.length && err <= 1e-5 * scale;
    failed = failed || !ok;
    console.log(`${name} ${y.length === ref.data.length ? (err / scale).toExponential(2)
                                                      : 'size ' + y.length + ' vs ' + ref.data.length}` +
                (ok ? '' : ' MISMATCH'));
  }
  process.exit(failed ? 1 : 0);
})();
