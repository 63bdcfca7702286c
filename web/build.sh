#!/usr/bin/env bash
# Builds web/dist/: a static site (index.html, the library compiled to WebAssembly through
# wasm-bindgen, plain JavaScript modules, CSS) that works from any static file server, offline:
#   bash web/build.sh && cd web/dist && python3 -m http.server
# wasm-bindgen-cli is installed with cargo at the version of the wasm-bindgen crate the
# workspace pins (the generated JavaScript must match it), when it is not there already.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' Cargo.toml)
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
  cargo install --quiet wasm-bindgen-cli --version "$version"
fi
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
cargo build --quiet --profile web --target wasm32-unknown-unknown -p shaderscope-web
rm -rf web/dist
mkdir -p web/dist
wasm-bindgen --target web --no-typescript --out-dir web/dist \
  "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/web/shaderscope_web.wasm"
cp web/index.html web/app.js web/style.css web/dist/
echo "web/dist: $(du -b web/dist/shaderscope_web_bg.wasm | cut -f1) bytes of WebAssembly"
