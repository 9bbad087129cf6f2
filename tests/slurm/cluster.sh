#!/usr/bin/env bash
# A throwaway single-node Slurm cluster on this machine, everything (config,
# munge key and socket, state, logs) under one directory. One thing lies
# outside it: /etc/slurm/slurm.conf, a symlink to the directory's config
# while the cluster runs, because Snakemake's job step drops SLURM_CONF
# before its inner srun (as on a real cluster, commands inside a job find
# the configuration in the standard place). It refuses to start where
# /etc/slurm/slurm.conf already exists, and removes only its own link.
# /etc/munge is neither read nor changed. Needs root and
# Debian's slurm-wlm and munge. No accounting daemon: job status comes
# from squeue, so MinJobAge keeps finished jobs visible for 10 minutes.
#   tests/slurm/cluster.sh start DIR   start it; prints `export SLURM_CONF=DIR/slurm.conf`
#   tests/slurm/cluster.sh stop DIR    stop every daemon it started (by pid file)
set -euo pipefail
cmd=${1:?start|stop} dir=${2:?directory}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

ETC_CONF=/etc/slurm/slurm.conf

stop() {
  local f
  [[ -L $ETC_CONF && $(readlink "$ETC_CONF") == "$dir/slurm.conf" ]] && rm -f "$ETC_CONF"
  for f in "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munged.pid; do
    [[ -s $f ]] && kill "$(cat "$f")" 2>/dev/null || true
  done
  # wait until they are gone, so a following start finds the ports free
  for _ in $(seq 50); do
    local alive=0
    for f in "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munged.pid; do
      [[ -s $f ]] && kill -0 "$(cat "$f")" 2>/dev/null && alive=1
    done
    ((alive)) || break
    sleep 0.2
  done
  rm -f "$dir"/*.pid
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  [[ $(id -u) -eq 0 ]] || { echo "cluster.sh: needs root (slurmd runs jobs as their user)" >&2; exit 1; }
  for t in munged slurmctld slurmd sbatch; do
    command -v "$t" >/dev/null || { echo "cluster.sh: $t missing; apt-get install slurm-wlm munge" >&2; exit 1; }
  done
  if [[ -e $ETC_CONF || -L $ETC_CONF ]]; then
    echo "cluster.sh: $ETC_CONF exists: this machine has a Slurm configuration; not replacing it" >&2
    exit 1
  fi
  mkdir -p "$dir"/state "$dir"/spool "$dir"/munge
  chmod 700 "$dir"/munge
  dd if=/dev/urandom of="$dir"/munge/munge.key bs=1024 count=1 status=none
  chmod 400 "$dir"/munge/munge.key
  munged --force --key-file "$dir"/munge/munge.key --socket "$dir"/munge/socket \
    --pid-file "$dir"/munged.pid --log-file "$dir"/munged.log --seed-file "$dir"/munge/seed
  local host cpus mem_mb
  host=$(hostname -s)
  cpus=$(nproc)
  # what slurmd would report, less 1 GiB for the daemons and the system
  mem_mb=$(( $(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo) - 1024 ))
  cat > "$dir"/slurm.conf <<CONF
ClusterName=lsmrepro-test
SlurmctldHost=$host
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
SchedulerType=sched/backfill
NodeName=$host CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
  mkdir -p "$(dirname "$ETC_CONF")"
  ln -s "$dir/slurm.conf" "$ETC_CONF"
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -f "$SLURM_CONF"
  slurmd -f "$SLURM_CONF"
  for _ in $(seq 60); do
    sinfo -h -o '%T' 2>/dev/null | grep -qx idle && { echo "export SLURM_CONF=$SLURM_CONF"; return; }
    sleep 1
  done
  echo "cluster.sh: the node did not become idle in 60 s; logs in $dir" >&2
  tail -5 "$dir"/slurmctld.log "$dir"/slurmd.log >&2 || true
  stop
  exit 1
}

case $cmd in
  start) start ;;
  stop) stop ;;
  *) echo "cluster.sh: start|stop DIR" >&2; exit 2 ;;
esac
