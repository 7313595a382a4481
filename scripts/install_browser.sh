#!/usr/bin/env sh
# Debian's Chromium and CJK fonts for the browser tests of the web app (Playwright drives the system browser: it
# cannot download its own here). Installs only where it can (root with apt-get); elsewhere the browser tests
# skip and say why.
if command -v chromium >/dev/null 2>&1 && fc-list 2>/dev/null | grep -qi "noto.*cjk"; then
    exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "note: chromium or fonts-noto-cjk missing and not root with apt-get: the browser tests will be skipped" >&2
    exit 0
fi
(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk) >/dev/null 2>&1 \
    || echo "note: could not install chromium / fonts-noto-cjk: the browser tests will be skipped" >&2
exit 0
