#!/bin/bash
# Prints the path of a llama-server binary built from the llama.cpp source that node-llama-cpp ships
# (node_modules/node-llama-cpp/llama/gitRelease.bundle), building it once into a cache outside the
# checkout (about 15 minutes on 2 cores; then instant). Run from a project checkout after npm ci.
#   scripts/llama-server.sh   -> $HOME/.cache/gen-platform-llama/<commit>/build/bin/llama-server
# The same build puts llama-batched-bench (decode cost per batch shape) and llama-quantize (the
# engines bench's quantized model) beside it.
# LLAMA_SERVER=/path/to/llama-server short-circuits it. Build log: <cache>/<commit>/build.log
set -eu
if [[ -n ${LLAMA_SERVER:-} && -x $LLAMA_SERVER ]]; then echo "$LLAMA_SERVER"; exit 0; fi
bundle=node_modules/node-llama-cpp/llama/gitRelease.bundle
[[ -f $bundle ]] || { echo "no $bundle: run npm ci first" >&2; exit 1; }
commit=$(git bundle list-heads "$bundle" | head -1 | cut -c1-12)
dir=${XDG_CACHE_HOME:-$HOME/.cache}/gen-platform-llama/$commit
bin=$dir/build/bin/llama-server
targets=(llama-server llama-batched-bench llama-quantize)
built() { for t in "${targets[@]}"; do [[ -x $dir/build/bin/$t ]] || return 1; done; }
if ! built; then
  mkdir -p "$dir"
  exec 9>"$dir/.lock"; flock 9
  if [[ ! -x $bin ]]; then
    rm -rf "$dir/src"; git clone -q "$bundle" "$dir/src" 2>/dev/null
    cmake -S "$dir/src" -B "$dir/build" -DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
      -DLLAMA_OPENSSL=OFF -DCMAKE_BUILD_TYPE=Release >"$dir/build.log" 2>&1
  fi
  # A cache built before the other tools were added only gains them (the library is not rebuilt).
  if ! built; then cmake --build "$dir/build" --target "${targets[@]}" -j"$(nproc)" >>"$dir/build.log" 2>&1; fi
fi
echo "$bin"
