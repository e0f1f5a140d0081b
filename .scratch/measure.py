import sys, time, json
from dpregret.claims.privacy import SPECS, run_audit
n = int(sys.argv[1]); ids = sys.argv[2:] or list(SPECS)
out = {}
for cid in ids:
    t0 = time.process_time(); w0 = time.time()
    res, prim, sec = run_audit(SPECS[cid], n, 0.05, 20261122)
    cpu = time.process_time() - t0
    m = lambda r: (r.verdict, round(r.measured, 4))
    out[cid] = {"cpu": round(cpu, 1), "wall": round(time.time() - w0, 1), "correct": m(res), "primary": (prim.detail["variant"]["variant"],) + m(prim),
                "secondary": {k: m(v) for k, v in sec.items()}}
    print(cid, json.dumps(out[cid]), flush=True)
print("TOTAL cpu", round(sum(v["cpu"] for v in out.values()), 1))
