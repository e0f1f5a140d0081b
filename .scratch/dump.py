import sys, json, time
from dpregret.claims.privacy import SPECS, run_audit
out = {}; t = time.process_time()
for cid in SPECS:
    res, prim, sec = run_audit(SPECS[cid], 30000, 0.05, 7)
    out[cid] = [res.detail["correct"], prim.detail["variant"], {k: v.detail["variant"] for k, v in sec.items()}]
json.dump(out, open(sys.argv[1], "w"), sort_keys=True, default=str)
print("cpu", time.process_time() - t)
