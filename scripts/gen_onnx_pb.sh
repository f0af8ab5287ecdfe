#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# gen_onnx_pb.sh -- regenerate the committed protobuf-c bindings of ONNX,
# constructions/formats/onnx.pb-c.[ch], from the onnx.proto that Debian's
# python3-onnx 1.12 ships, with Debian's protobuf-c-compiler 1.4.1:
#
#   cd /usr/lib/python3/dist-packages/onnx && protoc-c --c_out=DIR -I. onnx.proto
#
# The bindings are committed (not generated at build time) so that `make`
# and `make check` need only the runtime library libprotobuf-c-dev, not the
# compiler and python3-onnx (with numpy and protobuf for Python).  The proto
# file's sha256 is pinned below.  `sh scripts/gen_onnx_pb.sh --check`
# regenerates into a temporary directory and fails if the committed files
# differ; without --check it rewrites them.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
proto_dir=/usr/lib/python3/dist-packages/onnx
proto_sha256=a96f50c0fe1ff9180b6025843d4f7efcf53b024c83db55a36cd24a1e44345182
command -v protoc-c >/dev/null 2>&1 || { echo "gen_onnx_pb: protoc-c missing (apt-get install protobuf-c-compiler)" >&2; exit 1; }
[ -f "$proto_dir/onnx.proto" ] || { echo "gen_onnx_pb: $proto_dir/onnx.proto missing (apt-get install python3-onnx)" >&2; exit 1; }
got=$(sha256sum < "$proto_dir/onnx.proto" | cut -d' ' -f1)
[ "$got" = "$proto_sha256" ] || { echo "gen_onnx_pb: $proto_dir/onnx.proto: sha256 expected $proto_sha256, got $got" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$proto_dir" && protoc-c --c_out="$tmp" -I. onnx.proto)
if [ "${1:-}" = --check ]; then
    for f in onnx.pb-c.c onnx.pb-c.h; do
        cmp -s "$tmp/$f" "$here/constructions/formats/$f" || { echo "gen_onnx_pb: constructions/formats/$f differs from the generated file" >&2; exit 1; }
    done
    echo "gen_onnx_pb: the committed bindings equal protoc-c's output"
else
    cp "$tmp/onnx.pb-c.c" "$tmp/onnx.pb-c.h" "$here/constructions/formats/"
    echo "gen_onnx_pb: wrote constructions/formats/onnx.pb-c.[ch]"
fi
