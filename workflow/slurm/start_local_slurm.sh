#!/usr/bin/env bash
# Start a single-node Slurm cluster (slurmctld + slurmd + munge) on this host.
# Idempotent: installs Debian's slurm-wlm and munge if missing, (re)writes a
# minimal slurm.conf from this host's real CPU count and memory (`slurmd -C`),
# starts whatever daemon is not running, and waits until `sinfo` shows the node idle.
#
# Designed for containers/VMs without systemd and without a writable cgroup
# hierarchy: process tracking is proctrack/linuxproc, no task/cgroup plugin,
# no accounting database (job status is read with `squeue`, kept for MinJobAge).
# Must run as root.  Usage: workflow/slurm/start_local_slurm.sh [partition-name]
set -euo pipefail

PARTITION="${1:-${SLURM_PARTITION:-main}}"
CONF_DIR=/etc/slurm
CONF="$CONF_DIR/slurm.conf"
LOG_DIR=/var/log/slurm
STATE_DIR=/var/lib/slurm
WAIT_SECONDS="${SLURM_WAIT_SECONDS:-60}"

if [[ $(id -u) -ne 0 ]]; then
    echo "start_local_slurm.sh: must run as root" >&2
    exit 1
fi

# 1. packages
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    echo "[slurm] installing slurm-wlm and munge (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq slurm-wlm munge >/dev/null
fi

# 2. munge key + daemon
if [[ ! -s /etc/munge/munge.key ]]; then
    echo "[slurm] creating munge key"
    mungekey --create --force 2>/dev/null || \
        dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
    chown munge:munge /etc/munge/munge.key
    chmod 600 /etc/munge/munge.key
fi
install -d -o munge -g munge -m 0755 /run/munge /var/log/munge /var/lib/munge
if ! pgrep -u munge -x munged >/dev/null; then
    echo "[slurm] starting munged"
    runuser -u munge -- /usr/sbin/munged
fi
for _ in $(seq 1 20); do
    munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break
    sleep 0.5
done
munge -n | unmunge >/dev/null || { echo "[slurm] munge does not work" >&2; exit 1; }

# 3. slurm.conf from this host's real hardware
HOST=$(hostname -s)
# slurmd -C prints e.g. "NodeName=vm CPUs=2 Boards=1 SocketsPerBoard=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=24105"
NODE_LINE=$(slurmd -C | head -n 1)
CPUS=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$NODE_LINE")
SOCKETS=$(sed -n 's/.*SocketsPerBoard=\([0-9]*\).*/\1/p' <<<"$NODE_LINE")
CORES=$(sed -n 's/.*CoresPerSocket=\([0-9]*\).*/\1/p' <<<"$NODE_LINE")
THREADS=$(sed -n 's/.*ThreadsPerCore=\([0-9]*\).*/\1/p' <<<"$NODE_LINE")
MEM=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$NODE_LINE")
# keep a little head-room so that the node is never drained for "low RealMemory"
MEM=$(( MEM * 95 / 100 ))

mkdir -p "$CONF_DIR" "$LOG_DIR" "$STATE_DIR/slurmctld" "$STATE_DIR/slurmd"
NEW_CONF=$(mktemp)
cat >"$NEW_CONF" <<CONF
# Written by dpregret workflow/slurm/start_local_slurm.sh -- single-node test cluster.
ClusterName=dpregret
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
# no systemd / no delegated cgroup tree in this VM: track processes by pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# finished jobs stay visible to squeue for an hour (the executor polls squeue)
MinJobAge=3600
ReturnToService=2
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=$STATE_DIR/slurmctld
SlurmdSpoolDir=$STATE_DIR/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=$LOG_DIR/slurmctld.log
SlurmdLogFile=$LOG_DIR/slurmd.log
SlurmctldTimeout=120
SlurmdTimeout=300
InactiveLimit=0
KillWait=30
Waittime=0
NodeName=$HOST CPUs=$CPUS SocketsPerBoard=$SOCKETS CoresPerSocket=$CORES ThreadsPerCore=$THREADS RealMemory=$MEM State=UNKNOWN
PartitionName=$PARTITION Nodes=$HOST Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF

RESTART=0
if [[ ! -f "$CONF" ]] || ! cmp -s "$NEW_CONF" "$CONF"; then
    echo "[slurm] writing $CONF (node $HOST: $CPUS CPUs, ${MEM} MB, partition $PARTITION)"
    install -m 0644 "$NEW_CONF" "$CONF"
    RESTART=1
fi
rm -f "$NEW_CONF"

# 4. daemons
if [[ $RESTART -eq 1 ]]; then
    for d in slurmd slurmctld; do
        if [[ -f /run/$d.pid ]] && kill -0 "$(cat /run/$d.pid)" 2>/dev/null; then
            echo "[slurm] config changed: stopping $d"
            kill "$(cat /run/$d.pid)"
            for _ in $(seq 1 20); do kill -0 "$(cat /run/$d.pid)" 2>/dev/null || break; sleep 0.5; done
        fi
    done
fi
running() { [[ -f /run/$1.pid ]] && kill -0 "$(cat /run/$1.pid)" 2>/dev/null; }
if ! running slurmctld; then
    echo "[slurm] starting slurmctld"
    slurmctld
fi
if ! running slurmd; then
    echo "[slurm] starting slurmd"
    slurmd
fi

# 5. wait for the node to be idle
for _ in $(seq 1 "$WAIT_SECONDS"); do
    STATE=$(sinfo -h -n "$HOST" -o '%T' 2>/dev/null | head -n 1 || true)
    case "$STATE" in
        idle|mixed|allocated) break ;;
        down*|drain*)
            scontrol update NodeName="$HOST" State=RESUME 2>/dev/null || true ;;
    esac
    sleep 1
done
STATE=$(sinfo -h -n "$HOST" -o '%T' 2>/dev/null | head -n 1 || true)
sinfo
if [[ "$STATE" != idle && "$STATE" != mixed && "$STATE" != allocated ]]; then
    echo "[slurm] node $HOST is '$STATE', not idle; see $LOG_DIR/slurmctld.log and $LOG_DIR/slurmd.log" >&2
    exit 1
fi
echo "[slurm] ready: node $HOST is $STATE in partition $PARTITION"
