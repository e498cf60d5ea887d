#!/bin/sh
# Brings a fresh clone to a runnable state: installs dependencies (with the project's own Node 22)
# when package-lock.json changed since the last install; with --test (or --bench) makes sure the
# browser those need and a CJK font are there, and with --test the XML and OAI-PMH clients.
set -e
cd "$(dirname "$0")/.."
stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "setup: installing dependencies"
  npm install --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi
if [ "$1" = "--test" ] || [ "$1" = "--bench" ]; then
  # Browser tests run in Debian's Chromium headless shell (the lighter headless build Playwright
  # itself uses; docs/decisions/0031-a-faster-test-suite.md), the bench's Lighthouse in the full
  # browser; both need a CJK font so Japanese and Chinese pages render as members see them.
  packages=""
  if [ -z "$CHROMIUM_PATH" ]; then
    [ "$1" != "--test" ] || [ -x /usr/bin/chromium-headless-shell ] || packages="chromium-headless-shell"
    # The full browser too: Lighthouse, and the one test about Chromium's own PDF viewer.
    [ -x /usr/bin/chromium ] || packages="$packages chromium"
  fi
  dpkg -s fonts-wqy-microhei >/dev/null 2>&1 || packages="$packages fonts-wqy-microhei"
  # Clients nobody here wrote that judge the open records (decision 0049): xmllint validates the
  # sitemaps and OAI-PMH answers against their schemas; HTTP::OAI harvests the repository.
  if [ "$1" = "--test" ]; then
    command -v xmllint >/dev/null 2>&1 || packages="$packages libxml2-utils"
    dpkg -s libhttp-oai-perl >/dev/null 2>&1 || packages="$packages libhttp-oai-perl"
  fi
  if [ -n "$packages" ]; then
    echo "setup: installing$packages from Debian's packages"
    sudo_cmd=""
    [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq $packages >/dev/null
  fi
fi
exit 0
