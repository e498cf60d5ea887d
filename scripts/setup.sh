#!/bin/sh
# Brings a fresh clone to a runnable state: installs dependencies (with the project's own Node 22)
# when package-lock.json changed since the last install, and with --test makes sure Chromium is there.
set -e
cd "$(dirname "$0")/.."
stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "setup: installing dependencies"
  npm install --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi
if [ "$1" = "--test" ] && [ -z "$CHROMIUM_PATH" ] && [ ! -x /usr/bin/chromium ]; then
  echo "setup: installing Chromium from Debian's packages"
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
fi
exit 0
