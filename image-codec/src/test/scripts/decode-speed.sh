#!/usr/bin/env bash
# Decode speed of image-codec against DCMTK (and pydicom 3 when a Python with it is given) on a larger image: the
# 1760x1760 radiograph RG3_UNCR.dcm of the shared test data, compressed here by DCMTK as JPEG-LS lossless, JPEG-LS
# near-lossless (NEAR 2), 12-bit JPEG Extended and RLE. Prints median times and the ratio image-codec / other, and
# checks frame 0 decodes to the same pixels as DCMTK's decompression (SHA-256 of the native frame).
#   image-codec/src/test/scripts/decode-speed.sh [python-with-pydicom3-pylibjpeg-pyjpegls]
# Run from the repository root after `mvn -o -q -pl image-codec -am test-compile`. Timings, not assertions: the
# machine's load shows in them; image-codec is timed in a warm JVM (parsing included), DCMTK as the whole command
# (process start, read, decode, write), pydicom in-process (pixel_array of every frame).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../../.." && pwd)
python=${1:-}
runs=15
source_image=${MEDJAVA_SPEED_IMAGE:-$root/../shared/testdata/dicom/RG3_UNCR.dcm}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

dcmcjpls "$source_image" "$work/jpeg-ls.dcm"
dcmcjpls +en "$source_image" "$work/jpeg-ls-near2.dcm"
dcmcjpeg +ee "$source_image" "$work/jpeg-12bit.dcm"
dcmcrle "$source_image" "$work/rle.dcm"
files=(jpeg-ls jpeg-ls-near2 jpeg-12bit rle)
declare -A tool=([jpeg-ls]=dcmdjpls [jpeg-ls-near2]=dcmdjpls [jpeg-12bit]=dcmdjpeg [rle]=dcmdrle)

(cd "$root" && mvn -B -ntp -o -q -pl image-codec dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$work/cp" >/dev/null)
(cd "$work" && java -cp "$root/image-codec/target/classes:$root/image-codec/target/test-classes:$(cat "$work/cp")" \
  org.medjava.codec.dicom.DecodeSpeed $runs "${files[@]/%/.dcm}" 2>/dev/null | sed "s|^|java\t|" >"$work/java.tsv")

for f in "${files[@]}"; do
  python3 - "$work" "$f" "${tool[$f]}" $runs <<'PY' >>"$work/dcmtk.tsv"
import hashlib, statistics, subprocess, sys, time
work, name, tool, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
src, out = f"{work}/{name}.dcm", f"{work}/{name}-{tool}.dcm"
times = []
for _ in range(runs):
    t0 = time.perf_counter()
    subprocess.run([tool, src, out], check=True)
    times.append(time.perf_counter() - t0)
print(f"{name}.dcm\t{statistics.median(times) * 1000:.1f}")
PY
done

if [ -n "$python" ]; then
  "$python" - "$work" $runs "${files[@]}" <<'PY' >"$work/pydicom.tsv"
import hashlib, statistics, sys, time
import numpy as np
import pydicom
from pydicom.pixels import pixel_array
work, runs, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
for name in names:
    path = f"{work}/{name}.dcm"
    try:
        pixel_array(path)
    except Exception as e:
        print(f"{name}.dcm\tfails: {str(e).splitlines()[-1][:60]}")
        continue
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        pixel_array(path)
        times.append(time.perf_counter() - t0)
    print(f"{name}.dcm\t{statistics.median(times) * 1000:.1f}")
PY
fi

# Debian's python3-pydicom (installed by bootstrap/install-deps.sh --test) reads DCMTK's output
/usr/bin/python3 - "$work" "${files[@]}" <<'PY'
import hashlib, os, sys
work, names = sys.argv[1], sys.argv[2:]
java = {l.split("\t")[1]: dict(kv.split("=", 1) for kv in l.strip().split("\t")[2:]) for l in open(f"{work}/java.tsv")}
dcmtk = dict(l.strip().split("\t") for l in open(f"{work}/dcmtk.tsv"))
py = dict(l.strip().split("\t") for l in open(f"{work}/pydicom.tsv")) if os.path.exists(f"{work}/pydicom.tsv") else {}

def dcmtk_sha(name):
    # frame 0 of DCMTK's uncompressed output (read with Debian's pydicom), as image-codec's native frames hold it
    import pydicom
    out = [f for f in os.listdir(work) if f.startswith(name + "-")][0]
    ds = pydicom.dcmread(os.path.join(work, out))
    size = ds.Rows * ds.Columns * ds.SamplesPerPixel * (ds.BitsAllocated // 8)
    return hashlib.sha256(ds.PixelData[:size]).hexdigest()

print("file\tframes\timage-codec ms\tDCMTK ms\tratio\tpydicom ms\tratio\tsame pixels as DCMTK")
for name in names:
    f = f"{name}.dcm"
    j = float(java[f]["median_ms"])
    d = float(dcmtk[f])
    p = py.get(f, "-")
    pr = f"{j / float(p):.2f}" if p.replace(".", "").isdigit() else "-"
    same = "yes" if dcmtk_sha(name) == java[f]["frame0_sha256"] else "NO"
    print(f"{f}\t{java[f]['frames']}\t{j:.1f}\t{d:.1f}\t{j / d:.2f}\t{p}\t{pr}\t{same}")
PY
