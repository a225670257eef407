#!/usr/bin/env bash
# Installs what the browser part of the end-to-end tests needs and the machine may lack: Debian's Chromium.
# Idempotent and quick when Chromium is already there. Needs root (CI runs as root); prints why it fails otherwise.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "test/realN8n/setup.sh: /usr/bin/chromium is missing and this is not root; install it with: sudo apt-get install -y chromium" >&2
	exit 1
fi
start=$(date +%s)
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null
echo "test/realN8n/setup.sh: installed $(/usr/bin/chromium --version 2>/dev/null) in $(( $(date +%s) - start )) s"
