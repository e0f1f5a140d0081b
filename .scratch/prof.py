import cProfile, pstats, sys
from dpregret.claims.privacy import SPECS, run_audit
cid = sys.argv[1]; n = int(sys.argv[2])
cProfile.run("run_audit(SPECS[cid], n, 0.05, 20261122)", "/tmp/calib_prof")
pstats.Stats("/tmp/calib_prof").sort_stats("tottime").print_stats(18)
