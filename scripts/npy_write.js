// SPDX-License-Identifier: GPL-3.0-or-later
// npy_write.js -- write a little-endian float32 .npy file (format 1.0, C
// order), shared by the node references of the claim-E data steps
// (scripts/calib_reference.js, scripts/ppocr_reference.js).
"use strict";
const fs = require("fs");

// writeNpy(FILE, DATA, SHAPE): DATA a typed or plain array of SHAPE's product entries
function writeNpy(file, data, shape) {
  let header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
    shape.join(", ") + (shape.length === 1 ? "," : "") + "), }";
  const pad = 64 - ((10 + header.length + 1) % 64);
  header = header + " ".repeat(pad % 64) + "\n";
  const buf = Buffer.alloc(10 + header.length + 4 * data.length);
  buf.write("\x93NUMPY", 0, "latin1");
  buf[6] = 1; buf[7] = 0;
  buf.writeUInt16LE(header.length, 8);
  buf.write(header, 10, "latin1");
  for (let i = 0; i < data.length; i++) buf.writeFloatLE(data[i], 10 + header.length + 4 * i);
  fs.writeFileSync(file, buf);
}

module.exports = { writeNpy };
