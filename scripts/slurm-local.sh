#!/usr/bin/env bash
# A one-node Slurm cluster on localhost (munge, slurmctld, slurmd from Debian's slurm-wlm),
# for the sweep tests and for trying `gpusim sweep --slurm` without a cluster.
#   scripts/slurm-local.sh start DIR   writes DIR/slurm.conf, starts the daemons, waits for the node
#   scripts/slurm-local.sh stop DIR    stops them
# Clients then need SLURM_CONF=DIR/slurm.conf. Needs root (the daemons run as root here).
set -euo pipefail

action="${1:-}"
dir="${2:-}"
if [[ -z "$action" || -z "$dir" ]]; then
  echo "usage: scripts/slurm-local.sh start|stop DIR" >&2
  exit 2
fi
dir="$(mkdir -p "$dir" && cd "$dir" && pwd)"
conf="$dir/slurm.conf"

stop() {
  for name in slurmd slurmctld; do
    if [[ -f "$dir/$name.pid" ]]; then
      local pid
      pid="$(cat "$dir/$name.pid")"
      kill "$pid" 2>/dev/null || true
      # Wait until it has gone: slurmctld saves its state into DIR on the way out, so a
      # caller removing DIR right after would race it.
      for _ in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
      done
      rm -f "$dir/$name.pid"
    fi
  done
}

if [[ "$action" == stop ]]; then
  stop
  exit 0
fi
if [[ "$action" != start ]]; then
  echo "slurm-local: unknown action '$action' (start or stop)" >&2
  exit 2
fi
for tool in munged slurmctld slurmd sinfo; do
  command -v "$tool" >/dev/null || { echo "slurm-local: $tool not found (scripts/install-deps.sh installs slurm-wlm and munge)" >&2; exit 1; }
done

# munge authenticates Slurm's messages; one daemon serves every cluster on the machine.
if ! pgrep -x munged >/dev/null; then
  [[ -f /etc/munge/munge.key ]] || mungekey --create --keyfile=/etc/munge/munge.key
  chown munge:munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  runuser -u munge -- /usr/sbin/munged
fi

host="$(hostname -s)"
cpus="$(nproc)"
mem_mb="$(awk '/MemTotal/ {print int($2 / 1024 * 0.8)}' /proc/meminfo)"
mkdir -p "$dir/state" "$dir/spool"
cat > "$conf" <<CONF
ClusterName=gpusim-local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=6817
SlurmdPort=6818
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

stop
export SLURM_CONF="$conf"
slurmctld -f "$conf"
slurmd -f "$conf"
for _ in $(seq 1 60); do
  if sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then
    echo "slurm-local: node $host up with $cpus CPUs (SLURM_CONF=$conf)"
    exit 0
  fi
  sleep 0.5
done
echo "slurm-local: the node did not come up in 30 s; logs: $dir/slurmctld.log, $dir/slurmd.log" >&2
sinfo >&2 || true
exit 1
