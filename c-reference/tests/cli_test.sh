#!/bin/sh
# CLI tests for medjava-filter: usage errors, bad files, atomic output.
# usage: sh tests/cli_test.sh BUILD_DIR
BUILD=${1:-build}
HERE=$(cd "$(dirname "$0")" && pwd)
BIN="$BUILD/medjava-filter"
G="$HERE/golden"
T=$(mktemp -d "${TMPDIR:-/tmp}/mj-cli-test.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect_fail NAME PATTERN ARGS... : non-zero exit, stderr contains PATTERN, no $T/out.ppm
expect_fail() {
    name=$1; pattern=$2; shift 2
    rm -f "$T/out.ppm"
    if "$BIN" "$@" >"$T/stdout" 2>"$T/stderr"; then
        bad "$name: exited 0"
    elif ! grep -q -- "$pattern" "$T/stderr"; then
        bad "$name: stderr lacks '$pattern': $(cat "$T/stderr")"
    elif [ -e "$T/out.ppm" ]; then
        bad "$name: left an output file"
    else
        ok
    fi
}

# expect_ok NAME EXPECTED ARGS... (output to $T/out.ppm, compared with EXPECTED)
expect_ok() {
    name=$1; expected=$2; shift 2
    rm -f "$T/out.ppm"
    if ! "$BIN" "$@" 2>"$T/stderr"; then
        bad "$name: failed: $(cat "$T/stderr")"
    elif ! cmp -s "$T/out.ppm" "$expected"; then
        bad "$name: output differs from $expected"
    else
        ok
    fi
}

"$BIN" --help >/dev/null 2>&1 && ok || bad "--help"
expect_fail "no arguments" "usage"
expect_fail "unknown filter" "available filters: blur, sharpen, despeckle, edge-detect, emboss, oil-paint, pixelize, spread" \
    blurr "$G/inputs/spot-3x3.ppm" "$T/out.ppm"
expect_fail "invalid parameter" 'blur: parameter n="4" is invalid: n must be an odd integer from 1 to 255 (default 3)' \
    blur n=4 "$G/inputs/spot-3x3.ppm" "$T/out.ppm"
expect_fail "unknown parameter" 'unknown parameter "q"' sharpen q=3 "$G/inputs/spot-3x3.ppm" "$T/out.ppm"
expect_fail "bad region" "region" blur --region 1,2,3 "$G/inputs/spot-3x3.ppm" "$T/out.ppm"
expect_fail "bad impl" "straightforward, optimized or vectorized" blur --impl fast "$G/inputs/spot-3x3.ppm" "$T/out.ppm"
expect_fail "missing output" "missing" blur "$G/inputs/spot-3x3.ppm"
expect_fail "stray argument" "unexpected argument" blur foo "$G/inputs/spot-3x3.ppm" "$T/out.ppm"
expect_fail "unreadable input" "cannot open" blur "$T/does-not-exist.ppm" "$T/out.ppm"

printf 'P6\n4 4\n255\nabc' >"$T/trunc.ppm"
expect_fail "truncated pixel data" "truncated" blur "$T/trunc.ppm" "$T/out.ppm"
printf 'P6\n4 4\n' >"$T/trunc2.ppm"
expect_fail "truncated header" "header" blur "$T/trunc2.ppm" "$T/out.ppm"
printf 'P3\n1 1\n255\n1 2 3\n' >"$T/p3.ppm"
expect_fail "ascii PPM" "not a binary PPM" blur "$T/p3.ppm" "$T/out.ppm"
printf 'hello world\n' >"$T/text.ppm"
expect_fail "not a PPM" "not a binary PPM" blur "$T/text.ppm" "$T/out.ppm"
printf 'P6\n1 1\n65535\n123456' >"$T/deep.ppm"
expect_fail "maxval 65535" "maxval" blur "$T/deep.ppm" "$T/out.ppm"
printf 'P6\n0 1\n255\n' >"$T/zero.ppm"
expect_fail "zero width" "size" blur "$T/zero.ppm" "$T/out.ppm"
printf 'P6\n99999 99999\n255\nxyz' >"$T/huge.ppm"
expect_fail "huge header, tiny file" "truncated" blur "$T/huge.ppm" "$T/out.ppm"
expect_fail "directory as input" "" blur "$T" "$T/out.ppm"
expect_fail "output in missing directory" "cannot create temporary file" \
    blur "$G/inputs/spot-3x3.ppm" "$T/no/such/dir/out.ppm"

# a failing run never clobbers an existing output file
printf 'precious' >"$T/keep.ppm"
if "$BIN" blur "$T/trunc.ppm" "$T/keep.ppm" 2>/dev/null; then bad "clobber: exited 0";
elif [ "$(cat "$T/keep.ppm")" != precious ]; then bad "existing output clobbered"; else ok; fi

# successful runs match the hand-made golden expectations (header comment in the input)
expect_ok "blur default impl" "$G/expected/blur-3x3-counts.ppm" blur "$G/inputs/spot-3x3.ppm" "$T/out.ppm"
expect_ok "blur straightforward" "$G/expected/blur-3x3-counts.ppm" blur --impl straightforward \
    "$G/inputs/spot-3x3.ppm" "$T/out.ppm"
expect_ok "blur vectorized" "$G/expected/blur-3x3-counts.ppm" blur --impl vectorized \
    "$G/inputs/spot-3x3.ppm" "$T/out.ppm"
expect_ok "blur region" "$G/expected/blur-region-clips-window.ppm" blur --region 1,1,3,3 n=3 \
    "$G/inputs/spot-5x5.ppm" "$T/out.ppm"
expect_ok "region= form, outside" "$G/expected/pixelize-region-outside.ppm" pixelize --region=2,-3,10,9 \
    block=4x4 "$G/inputs/ramp-14x1.ppm" "$T/out.ppm"
expect_ok "two parameters" "$G/expected/oil-paint-centred.ppm" oil-paint window=centred n=3 \
    "$G/inputs/abbac-5x1.ppm" "$T/out.ppm"
expect_ok "spread seed" "$G/expected/spread-diamond-seed1.ppm" spread distance=1 seed=1 \
    --impl=optimized "$G/inputs/index-3x3.ppm" "$T/out.ppm"
# in place: the same path as input and output
cp "$G/inputs/spot-3x3.ppm" "$T/inplace.ppm"
if "$BIN" blur "$T/inplace.ppm" "$T/inplace.ppm" && cmp -s "$T/inplace.ppm" "$G/expected/blur-3x3-counts.ppm"; then ok;
else bad "in place"; fi
# the temporary file's 0600 mode is widened to 0666 & ~umask before the rename
(umask 022 && "$BIN" emboss "$G/inputs/spot-3x3.ppm" "$T/perm.ppm")
perm=$(ls -l "$T/perm.ppm" | cut -c1-10)
[ "$perm" = "-rw-r--r--" ] && ok || bad "output permissions $perm"
leftovers=$(ls "$T" | grep -c '\.tmp-' || true)
[ "$leftovers" = 0 ] && ok || bad "temporary files left behind: $(ls "$T")"

# 16-bit grey (--gray): signed 16-bit -3, -2 are the samples 32765, 32766; blur floors their mean to -3
printf 'P5\n2 1\n65535\n\177\375\177\376' >"$T/s16.pgm"
printf 'P5\n2 1\n65535\n\177\375\177\375' >"$T/s16-blur.pgm"
expect_ok "grey blur s16" "$T/s16-blur.pgm" blur --gray s16 "$T/s16.pgm" "$T/out.ppm"
expect_ok "grey blur straightforward" "$T/s16-blur.pgm" blur --gray=s16 --impl straightforward \
    "$T/s16.pgm" "$T/out.ppm"
expect_fail "grey format invalid" "--gray \"u17\" is invalid" blur --gray u17 "$T/s16.pgm" "$T/out.ppm"
expect_fail "grey maxval mismatch" "maxval 65535 does not match 12 bits stored" blur --gray u12 \
    "$T/s16.pgm" "$T/out.ppm"
printf 'P5\n2 1\n4095\n\017\377\020\000' >"$T/u12-bad.pgm"
expect_fail "grey sample above maxval" "exceeds maxval 4095" blur --gray u12 "$T/u12-bad.pgm" "$T/out.ppm"
expect_fail "grey ppm input" "not a binary PGM" blur --gray u16 "$G/inputs/spot-3x3.ppm" "$T/out.ppm"

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
