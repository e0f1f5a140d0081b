#!/usr/bin/env bash
# Stop the single-node Slurm cluster started by start_local_slurm.sh
# (slurmd, slurmctld, then munged), by the pids those daemons recorded.
set -uo pipefail
stop_pidfile() {  # name pidfile
    local name=$1 pidfile=$2 pid
    pid=$(cat "$pidfile" 2>/dev/null || true)
    if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
        echo "[slurm] stopping $name (pid $pid)"
        kill "$pid"
        for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    else
        echo "[slurm] $name not running"
    fi
}
stop_pidfile slurmd /run/slurmd.pid
stop_pidfile slurmctld /run/slurmctld.pid
stop_pidfile munged /run/munge/munged.pid
