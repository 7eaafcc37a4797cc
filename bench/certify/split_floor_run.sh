#!/bin/bash
# bench/certify/split_floor_run.sh [BUILD_DIR] [SHARED_DATA] -- the split's floor against the subset
# count, measured independently of ckm's own floor (split_floor.py: scikit-learn's k-means on each
# subset of ckm's split). Measures, never asserts. Labels: kmeans, 10 restarts (as run.sh makes
# them). Writes bench/results/certify_split_floor.csv.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/setup.sh"
cert_setup "${2:-$here/../../../shared/data}"
ckm=${1:-$root/build-rel}/ckm
csv=$out/certify_split_floor.csv
echo "instance,T,points_per_subset,sse,restricted_sum,least_sum,floor_pct" > "$csv"
# instance and the subset counts: ckm's choice at -t 300 (900 for 10^5) first, then coarser ones
while read -r name counts; do
    cert_instance "$name"
    cert_labels "$ckm" "$name"
    # shellcheck disable=SC2086
    OPENBLAS_NUM_THREADS=1 "$py" "$here/split_floor.py" "$ckm" "$data" "$lab" "$k" $counts | tail -n +2 |
        sed "s/^/$name,/" | tee -a "$csv"
done <<'EOF'
Facebook 18 9 7 3
Electric 30 15 7 3
Pulsar 70 30 15 7
Frogs 19 9 4
blobs_10000 30 15 7
blobs_100000 530 918 400 200 100
EOF
