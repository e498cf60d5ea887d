#!/bin/sh
# Brings a fresh clone to a runnable state: installs dependencies (with the project's own Node 22)
# when package-lock.json changed since the last install, and with --test makes sure Chromium and a CJK font are there.
set -e
cd "$(dirname "$0")/.."
stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "setup: installing dependencies"
  npm install --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi
if [ "$1" = "--test" ]; then
  # Browser tests need Chromium, and a CJK font so Japanese and Chinese pages render as members see them.
  packages=""
  [ -n "$CHROMIUM_PATH" ] || [ -x /usr/bin/chromium ] || packages="chromium"
  dpkg -s fonts-wqy-microhei >/dev/null 2>&1 || packages="$packages fonts-wqy-microhei"
  if [ -n "$packages" ]; then
    echo "setup: installing$packages from Debian's packages"
    sudo_cmd=""
    [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq $packages >/dev/null
  fi
fi
exit 0
