#!/usr/bin/env bash
# Run the smoke preset through the SLURM executor plugin and locally, each in its own
# scratch copy of the repository, and compare the result tables byte for byte.
#
#   workflow/slurm/start_local_slurm.sh          # or any real cluster you are logged in to
#   workflow/slurm/run_smoke_on_slurm.sh [scratch-root]
#
# Needs snakemake and snakemake-executor-plugin-slurm on PATH (SNAKEMAKE=... to override),
# and sbatch/squeue.  Exits non-zero if a run fails or a compared file differs.
# Compared: sha256 of every results/**/*.parquet and results/claims/*.json, except files
# holding wall-clock timing (a column or key named *_time / *_seconds / elapsed* / wall*),
# which are listed as excluded together with the offending columns.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
SNAKEMAKE=${SNAKEMAKE:-$(command -v snakemake)}
PYTHON=${PYTHON:-$(dirname "$SNAKEMAKE")/python}
[[ -x $PYTHON ]] || PYTHON=python3
ROOT=${1:-$(mktemp -d "${TMPDIR:-/tmp}/dpregret-slurm-smoke.XXXXXX")}
mkdir -p "$ROOT"
SLURM_DIR="$ROOT/slurm"
LOCAL_DIR="$ROOT/local"

copy_repo() {  # dest: tracked + untracked-not-ignored files of the working tree (no results)
    rm -rf "$1"; mkdir -p "$1"
    (cd "$REPO" && git ls-files -co --exclude-standard -z | \
        xargs -0 -I{} sh -c 'test -e "{}" && printf "%s\0" "{}"' | \
        tar --null -T - -cf -) | tar -xf - -C "$1"
}

echo "== scratch root: $ROOT"
copy_repo "$SLURM_DIR"
copy_repo "$LOCAL_DIR"

echo "== smoke preset through the SLURM executor ($SLURM_DIR)"
t0=$(date +%s)
(cd "$SLURM_DIR" && "$SNAKEMAKE" --profile profiles/slurm --config preset=smoke) \
    >"$ROOT/slurm.log" 2>&1 || { tail -n 60 "$ROOT/slurm.log"; echo "SLURM run failed (log: $ROOT/slurm.log)" >&2; exit 2; }
t1=$(date +%s)
echo "   done in $((t1 - t0)) s; $(grep -c 'submitted with SLURM jobid' "$ROOT/slurm.log" || true) SLURM submissions (log: $ROOT/slurm.log)"

echo "== smoke preset locally ($LOCAL_DIR)"
(cd "$LOCAL_DIR" && "$SNAKEMAKE" --cores "${LOCAL_CORES:-2}" --config preset=smoke) \
    >"$ROOT/local.log" 2>&1 || { tail -n 60 "$ROOT/local.log"; echo "local run failed (log: $ROOT/local.log)" >&2; exit 2; }
t2=$(date +%s)
echo "   done in $((t2 - t1)) s (log: $ROOT/local.log)"

echo "== byte-for-byte comparison of result tables"
"$PYTHON" - "$SLURM_DIR" "$LOCAL_DIR" <<'PY'
import hashlib, json, re, sys
from pathlib import Path

import pyarrow.parquet as pq

a, b = (Path(p) for p in sys.argv[1:3])
# Parquet files with wall-clock columns are excluded from the sha256 comparison, but their
# remaining (non-timing) columns must still be equal value for value.
TIMING = re.compile(r"(_time|_times|_seconds|_secs|^time$|^seconds$|elapsed|wall)", re.I)

def files(root):
    res = root / "results"
    out = {p.relative_to(root) for p in res.rglob("*.parquet")}
    out |= {p.relative_to(root) for p in (res / "claims").glob("*.json")}
    return out

def timing_fields(path):
    if path.suffix == ".parquet":
        names = pq.read_schema(path).names
    else:
        names = []
        def walk(o):
            if isinstance(o, dict):
                for k, v in o.items():
                    names.append(str(k)); walk(v)
            elif isinstance(o, list):
                for v in o: walk(v)
        walk(json.loads(path.read_text()))
    return sorted({n for n in names if TIMING.search(n)})

def sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()

fa, fb = files(a), files(b)
bad = 0
for only, where in ((fa - fb, a), (fb - fa, b)):
    for p in sorted(only):
        print(f"MISSING in the other run: {p} (only in {where})"); bad += 1
same = excluded = 0
for rel in sorted(fa & fb):
    tf = timing_fields(a / rel)
    if tf:
        excluded += 1
        if rel.suffix == ".parquet":
            # not byte-comparable; compare the remaining columns value for value instead
            ta, tb = (pq.read_table(r / rel).drop_columns(tf) for r in (a, b))
            ok = ta.equals(tb)
            print(f"excluded from sha256 (wall-clock columns {', '.join(tf)}); "
                  f"other columns {'equal' if ok else 'DIFFER'}: {rel}")
            if not ok:
                bad += 1
        else:
            print(f"excluded (wall-clock keys {', '.join(tf)}): {rel}")
        continue
    ha, hb = sha(a / rel), sha(b / rel)
    if ha != hb:
        print(f"DIFFERS: {rel}\n  slurm {ha}\n  local {hb}"); bad += 1
    else:
        same += 1
print(f"sha256 compared {same + bad} files: {same} identical, {bad} differing/missing; "
      f"{excluded} excluded from sha256 for wall-clock timing columns")
sys.exit(1 if bad else 0)
PY
rc=$?
[[ $rc -eq 0 ]] && echo "== RESULT: byte-identical" || echo "== RESULT: MISMATCH" >&2
exit $rc
