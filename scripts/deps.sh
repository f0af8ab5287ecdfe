#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# deps.sh -- make sure the Debian 12 packages attnrank builds against are present.
# Installs them with apt-get when run as root (and apt-get exists); otherwise
# prints the exact command and fails.  Quiet when everything is present.
# `deps.sh fuzz` (make fuzz, make fuzz-smoke) also needs clang with the
# libFuzzer runtime; `deps.sh parallel` (make verify JOBS=N) adds GNU
# parallel; `deps.sh slurm` (make check-slurm) Slurm's daemons and munge
# for a one-node cluster; `deps.sh calib` the tools of the claim-E data steps
# (ImageMagick and DejaVu Sans to render the PP-OCRv4 text lines,
# python3-onnx to add the reference outputs to its graph); `deps.sh torch`
# python3-torch for scripts/export_heads.py and its test.  Plain `deps.sh`
# (make check) never asks for any of these: the tests that need them skip
# with a printed reason.  Plain `deps.sh` also installs python3-numpy and
# python3-pytest for the Python package's tests (skipped, with a reason,
# where they cannot be installed).
set -u
PKGS="libmpfr-dev libgmp-dev libflint-dev libflint-arb-dev check pkg-config libopenblas-dev liblapacke-dev gnuplot-nox libglpk-dev libjansson-dev nettle-dev libgsl-dev libprotobuf-c-dev python3-numpy python3-pytest"
FUZZ_PKGS="clang libclang-rt-14-dev"
PARALLEL_PKGS="parallel"
SLURM_PKGS="slurm-wlm munge"
CALIB_PKGS="imagemagick fonts-dejavu-core python3-onnx"
TORCH_PKGS="python3-torch python3-numpy"
missing=""
need() { [ -e "$1" ] || missing="$missing $2"; }
need /usr/include/mpfr.h libmpfr-dev
need /usr/include/x86_64-linux-gnu/gmp.h libgmp-dev
[ -e /usr/include/gmp.h ] && missing=$(echo "$missing" | sed 's/ libgmp-dev//')
need /usr/include/flint/flint.h libflint-dev
need /usr/include/arb.h libflint-arb-dev
need /usr/include/check.h check
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
need /usr/include/lapacke.h liblapacke-dev
# OpenBLAS: its own LAPACK/BLAS (the reference BLAS is 7-8x slower here)
ls /usr/lib/*/openblas-pthread/libblas.so >/dev/null 2>&1 || missing="$missing libopenblas-dev"
command -v gnuplot >/dev/null 2>&1 || missing="$missing gnuplot-nox"
need /usr/include/glpk.h libglpk-dev
need /usr/include/jansson.h libjansson-dev
need /usr/include/nettle/sha2.h nettle-dev
need /usr/include/gsl/gsl_statistics_double.h libgsl-dev
need /usr/include/protobuf-c/protobuf-c.h libprotobuf-c-dev
# the Python package's tests (python/tests, run by make check with Debian's python3)
/usr/bin/python3 -c 'import numpy' 2>/dev/null || missing="$missing python3-numpy"
/usr/bin/python3 -c 'import pytest' 2>/dev/null || missing="$missing python3-pytest"
if [ "${1:-}" = fuzz ]; then
    PKGS="$PKGS $FUZZ_PKGS"
    command -v clang >/dev/null 2>&1 || missing="$missing clang"
    ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 ||
        missing="$missing libclang-rt-14-dev"
fi
if [ "${1:-}" = parallel ]; then
    PKGS="$PKGS $PARALLEL_PKGS"
    command -v parallel >/dev/null 2>&1 || missing="$missing parallel"
fi
if [ "${1:-}" = slurm ]; then
    PKGS="$PKGS $SLURM_PKGS"
    for c in slurmctld slurmd sbatch munged; do
        command -v $c >/dev/null 2>&1 || [ -x /usr/sbin/$c ] || missing="$missing $c"
    done
    case "$missing" in *slurm*|*sbatch*) missing="$missing slurm-wlm" ;; esac
    case "$missing" in *munged*) missing="$missing munge" ;; esac
fi
if [ "${1:-}" = calib ]; then
    PKGS="$PKGS $CALIB_PKGS"
    convert -version 2>/dev/null | grep -q ImageMagick || missing="$missing imagemagick"
    need /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf fonts-dejavu-core
    /usr/bin/python3 -c 'import onnx' 2>/dev/null || missing="$missing python3-onnx"
fi
if [ "${1:-}" = torch ]; then
    PKGS="$PKGS $TORCH_PKGS"
    /usr/bin/python3 -c 'import torch, numpy' 2>/dev/null || missing="$missing python3-torch"
fi
[ -z "$missing" ] && exit 0
echo "attnrank: missing packages:$missing" >&2
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "attnrank: installing with apt-get ..." >&2
    apt-get update -qq >&2 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $PKGS >&2 || {
        echo "attnrank: apt-get install failed" >&2; exit 1; }
    exit 0
fi
echo "attnrank: run as root:  apt-get update && apt-get install -y --no-install-recommends $PKGS" >&2
exit 1
