// The ONNX Runtime contestant of bench/peers (onnxruntime-node, CPU
// execution provider). Every mode creates one session with
//   intraOpNumThreads: T, interOpNumThreads: 1, graphOptimizationLevel: 'all'
// (ORT's full graph optimization: for a QDQ model the DequantizeLinear ->
// op -> QuantizeLinear groups become QLinearConv, QLinearAdd, QGemm, ...).
//
// Usage: node ort_bench.js <onnxruntime-node dir> <mode> ...
//   time  model.onnx in.npy runs warmup threads
//       `warmup` untimed runs then `runs` timed runs on the first B images of
//       in.npy (B: the model input's first dimension, repeated if in.npy has
//       fewer); prints one JSON line {"best_ms", "median_ms", "runs",
//       "batch", "threads"} (ms per run of the whole batch).
//   run   model.onnx in.npy out.npy
//       runs every whole batch of in.npy, writes the first output stacked.
//   optimize  model.onnx optimized.onnx
//       saves the graph ORT runs after its optimizations
//       (optimizedModelFilePath), one thread.
//   ranges  model.onnx in.npy ranges.json
//       MinMax calibration: runs each batch of in.npy through a model whose
//       graph outputs are the tensors to calibrate, writes
//       {"tensor": [min, max], ...} over all batches.
'use strict';
const fs = require('fs');
const path = require('path');

function fail(message) {
  process.stderr.write(`ort_bench: ${message}\n`);
  process.exit(1);
}

const [ortDir, mode, ...args] = process.argv.slice(2);
if (!ortDir || !mode) fail('usage: ort_bench.js <onnxruntime-node dir> time|run|optimize|ranges ...');
let ort;
try {
  ort = require(path.resolve(ortDir, 'node_modules', 'onnxruntime-node'));
} catch (e) {
  fail(`cannot load onnxruntime-node from ${ortDir}/node_modules (install it with ` +
       `ONNXRUNTIME_NODE_INSTALL=skip npm install onnxruntime-node@1.30): ${e.message}`);
}

// float32 C-order .npy -> {shape, data: Float32Array}
function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.toString('latin1', 1, 6) !== 'NUMPY') fail(`${file}: not a .npy file`);
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', start, start + headerLen);
  if (!header.includes("'<f4'") || header.includes("'fortran_order': True"))
    fail(`${file}: not a float32 C-order array`);
  const shape = header.match(/'shape':\s*\(([^)]*)\)/)[1]
    .split(',').map((s) => s.trim()).filter((s) => s).map(Number);
  const offset = start + headerLen;
  const count = shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(count);
  for (let i = 0; i < count; ++i) data[i] = buf.readFloatLE(offset + 4 * i);
  return { shape, data };
}

function writeNpy(file, shape, data) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  fs.writeFileSync(file, Buffer.concat([head, Buffer.from(header, 'latin1'), body]));
}

async function session(model, threads, extra = {}) {
  return ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    logSeverityLevel: 3,
    ...extra,
  });
}

// The model input's shape with a symbolic dimension taken as 1.
function inputShape(s) {
  const meta = s.inputMetadata && s.inputMetadata[0];
  if (!meta || !meta.isTensor || !meta.shape) fail('cannot read the model input\'s shape');
  return meta.shape.map((d) => (typeof d === 'number' && d > 0 ? d : 1));
}

// The first `count` elements of `images`, repeated if it has fewer.
function take(images, count) {
  if (images.length >= count) return images.subarray(0, count);
  const out = new Float32Array(count);
  for (let i = 0; i < count; ++i) out[i] = images[i % images.length];
  return out;
}

async function main() {
  if (mode === 'time' && args.length === 5) {
    const [model, input, runsArg, warmupArg, threadsArg] = args;
    const runs = Number(runsArg), warmup = Number(warmupArg), threads = Number(threadsArg);
    const s = await session(model, threads);
    const shape = inputShape(s);
    const x = new ort.Tensor('float32', take(readNpy(input).data, shape.reduce((a, b) => a * b, 1)), shape);
    const feeds = { [s.inputNames[0]]: x };
    for (let r = 0; r < warmup; ++r) await s.run(feeds);
    const t = [];
    for (let r = 0; r < runs; ++r) {
      const start = process.hrtime.bigint();
      await s.run(feeds);
      t.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    t.sort((a, b) => a - b);
    console.log(JSON.stringify({ best_ms: t[0], median_ms: t[Math.floor(runs / 2)], runs, batch: shape[0], threads }));
  } else if (mode === 'run' && args.length === 3) {
    const [model, input, output] = args;
    const s = await session(model, 1);
    const shape = inputShape(s);
    const size = shape.reduce((a, b) => a * b, 1);
    const images = readNpy(input).data;
    if (images.length % size !== 0) fail(`${input}: not whole model inputs`);
    const parts = [];
    let outShape;
    for (let i = 0; i < images.length; i += size) {
      const x = new ort.Tensor('float32', images.slice(i, i + size), shape);
      const result = await s.run({ [s.inputNames[0]]: x });
      const y = result[s.outputNames[0]];
      outShape = y.dims.slice();
      parts.push(Float32Array.from(y.data));
    }
    const data = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
    let offset = 0;
    for (const p of parts) { data.set(p, offset); offset += p.length; }
    outShape[0] *= parts.length;
    writeNpy(output, outShape, data);
  } else if (mode === 'optimize' && args.length === 2) {
    const [model, optimized] = args;
    await session(model, 1, { optimizedModelFilePath: path.resolve(optimized) });
  } else if (mode === 'ranges' && args.length === 3) {
    const [model, input, output] = args;
    // No optimization: the calibrated tensors must stay as they are.
    const s = await session(model, 1, { graphOptimizationLevel: 'disabled' });
    const shape = inputShape(s);
    const size = shape.reduce((a, b) => a * b, 1);
    const images = readNpy(input).data;
    if (images.length % size !== 0) fail(`${input}: not whole model inputs`);
    const ranges = {};
    for (let i = 0; i < images.length; i += size) {
      const x = new ort.Tensor('float32', images.slice(i, i + size), shape);
      const result = await s.run({ [s.inputNames[0]]: x });
      for (const name of s.outputNames) {
        const y = result[name].data;
        let lo = Infinity, hi = -Infinity;
        for (let j = 0; j < y.length; ++j) {
          const v = y[j];
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
        const r = ranges[name];
        ranges[name] = r ? [Math.min(r[0], lo), Math.max(r[1], hi)] : [lo, hi];
      }
    }
    fs.writeFileSync(output, JSON.stringify(ranges));
  } else {
    fail(`bad arguments for mode ${mode}`);
  }
}

main().catch((e) => fail(e.message || String(e)));
