#!/usr/bin/env bash
# Make sure Debian's Chromium (and a CJK font for its screenshots) is there for the browser tests (tests/browser),
# before `make test` runs them.
#
# Never downloads a browser build: as root it installs the distribution's `chromium` package with apt-get; otherwise
# it says loudly why the browser tests will be skipped, and leaves the reason in test-artifacts/chromium-missing.txt,
# which the tests print as their skip reason. Under CI (CI=true) or with TOYHW_REQUIRE_BROWSER=1 the tests fail
# instead of skipping, so CI cannot pass without having run them. Exits 0 either way.
#
# TOYHW_CHROMIUM=/path/to/chromium uses another Chromium (the tests read the same variable).
set -u
cd "$(dirname "$0")/.." || exit 1
CHROMIUM="${TOYHW_CHROMIUM:-/usr/bin/chromium}"
NOTE=test-artifacts/chromium-missing.txt
mkdir -p test-artifacts
rm -f "$NOTE"

works() { [ -x "$CHROMIUM" ] && "$CHROMIUM" --version >/dev/null 2>&1; }

# Screenshots of Chinese text (the website's glossaries, its Chinese edition) need a CJK font, or they show boxes; the
# tests read the text itself and pass either way. As root: Debian's fonts-wqy-microhei (1.6 MB), else a note.
has_cjk_font() { command -v fc-list >/dev/null 2>&1 && [ -n "$(fc-list :lang=zh family 2>/dev/null)" ]; }
install_cjk_font() {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei >/dev/null 2>&1 \
        || { DEBIAN_FRONTEND=noninteractive apt-get update -qq \
             && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei >/dev/null; }
}
if ! has_cjk_font; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "browser tests: installing a CJK font for screenshots (Debian's fonts-wqy-microhei) ..."
        install_cjk_font || echo "browser tests: could not install fonts-wqy-microhei: screenshots show Chinese as boxes"
    else
        echo "browser tests: no CJK font, so screenshots show Chinese as boxes (sudo apt-get install fonts-wqy-microhei)"
    fi
fi

if works; then
    echo "browser tests: $("$CHROMIUM" --version 2>/dev/null)"
    exit 0
fi

if [ "$CHROMIUM" != /usr/bin/chromium ]; then
    reason="TOYHW_CHROMIUM=$CHROMIUM is not an executable Chromium"
elif [ "$(id -u)" -ne 0 ]; then
    reason="not root, so tools/ensure_chromium.sh cannot install it; run: sudo apt-get install -y chromium"
elif ! command -v apt-get >/dev/null 2>&1; then
    reason="no apt-get here (not Debian); install Chromium and set TOYHW_CHROMIUM=/path/to/chromium"
else
    echo "browser tests: Chromium is missing; installing Debian's chromium package (apt-get, once per machine) ..."
    if DEBIAN_FRONTEND=noninteractive apt-get update -qq \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; then
        works && { echo "browser tests: installed $("$CHROMIUM" --version 2>/dev/null)"; exit 0; }
        reason="apt-get installed chromium, but $CHROMIUM does not run"
    else
        reason="apt-get install chromium failed (see the messages above)"
    fi
fi

echo "Chromium not found at $CHROMIUM: $reason" > "$NOTE"
cat >&2 <<MSG

##########################################################################################
#  WARNING: THE BROWSER TESTS WILL BE SKIPPED (tests/browser: JupyterLab and Voila in a  #
#  real Chromium). Chromium not found at $CHROMIUM
#  Why: $reason
##########################################################################################

MSG
exit 0
