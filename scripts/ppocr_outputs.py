#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# ppocr_outputs.py -- write a copy of the PP-OCRv4 recogniser whose graph also
# outputs the intermediate values the C model is compared with (onnxruntime
# only returns graph outputs).  Used by scripts/calib_data_ppocr.sh; needs
# Debian's python3-onnx.  Nothing else in the graph changes.
#
#   /usr/bin/python3 scripts/ppocr_outputs.py IN.onnx OUT.onnx
import sys

import onnx

NAMES = [
    "p2o.Add.235", "transpose_44.tmp_0_slice_0", "transpose_44.tmp_0_slice_1", "softmax_9.tmp_0",
    "p2o.Add.255", "transpose_47.tmp_0_slice_0", "transpose_47.tmp_0_slice_1", "softmax_10.tmp_0",
]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: ppocr_outputs.py IN.onnx OUT.onnx")
    m = onnx.load(sys.argv[1])
    have = {o.name for o in m.graph.output}
    defined = {o for n in m.graph.node for o in n.output}
    for name in NAMES:
        if name not in defined:
            sys.exit("ppocr_outputs: %s: no value named %s" % (sys.argv[1], name))
        if name not in have:
            m.graph.output.append(onnx.helper.make_empty_tensor_value_info(name))
    onnx.save(m, sys.argv[2])


if __name__ == "__main__":
    main()
