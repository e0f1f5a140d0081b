export PYTHONPATH=/work/wt/calib/src DPREGRET_SRC=/work/wt/calib/src; . /work/main/.venv/bin/activate
