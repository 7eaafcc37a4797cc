# bench/certify/setup.sh -- sourced by the certify benchmarks (run.sh, floor_run.sh, split_floor_run.sh,
# scale_run.sh, subset_run.sh):
#   cert_setup SHARED_DATA   sets root, out (bench/results), work (its certify_work) and py, and
#                            writes the instances (prepare.py) to $work/instances.txt
#   cert_instance NAME       sets n, k and data of one instance (NAME: its tag without "avoc:" etc.)
#   cert_bench SHARED_DATA INSTANCES NAME HEADER  (floor_run.sh, avoc_run.sh) cert_setup, then
#                            limit ($LIMIT, default 300), instances ($INSTANCES, default
#                            INSTANCES), name ($NAME, default NAME), csv (bench/results/name.csv,
#                            started with the HEADER line, then its earlier rows when $APPEND is
#                            set); sources bench/time_v.sh
#   cert_labels CKM NAME     the instance's labels (kmeans, 10 restarts), made once into
#                            $work/NAME.labels; sets lab
#   cert_problem CKM NAME    (hour_run.sh, avoc_run.sh, pair_run.sh) after cert_instance: std
#                            (--standardize for Electric and Pulsar, AVOC's problem, else empty)
#                            and lab (those two: `cluster --standardize --n-init 10`, made once
#                            into $work/NAME.std.labels; the others cert_labels')
#   cert_builds BUILD [OLD]  (scale_run.sh, subset_run.sh) sets build and old (absolute; old
#                            empty when not given), root and work ($WORK, default
#                            bench/results/certify_work)
cert_setup() {
    local here
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    root=$(cd "$here/../.." && pwd)
    out=$root/bench/results
    work=$out/certify_work
    py=/usr/bin/python3
    mkdir -p "$work"
    "$py" "$here/prepare.py" "$work" "$1" > "$work/instances.txt"
}

cert_bench() {
    cert_setup "$1"
    limit=${LIMIT:-300}
    instances=${INSTANCES:-$2}
    name=${NAME:-$3}
    csv=$out/$name.csv
    # shellcheck source=../time_v.sh
    source "$root/bench/time_v.sh"
    local kept=""
    [ -n "${APPEND:-}" ] && [ -s "$csv" ] && kept=$(tail -n +2 "$csv")
    echo "$4" > "$csv"
    if [ -n "$kept" ]; then echo "$kept" >> "$csv"; fi
}

cert_instance() {
    read -r _ n _ k data _ < <(awk -v t="$1" '{split($1, a, ":")} a[2] == t' "$work/instances.txt")
}

cert_labels() {
    lab=$work/$2.labels
    [ -s "$lab" ] || "$1" cluster "$data" -k "$k" --n-init 10 -o "$lab" -q
}

cert_problem() {
    std=()
    case $2 in Electric | Pulsar) std=(--standardize) ;; esac
    if [ ${#std[@]} -gt 0 ]; then
        lab=$work/$2.std.labels
        [ -s "$lab" ] || "$1" cluster "$data" -k "$k" --standardize --n-init 10 -o "$lab" -q
    else
        cert_labels "$1" "$2"
    fi
}

cert_builds() {
    local here
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    build=$(cd "$1" && pwd)
    old=${2:+$(cd "$2" && pwd)}
    root=$(cd "$here/../.." && pwd)
    work=${WORK:-$root/bench/results/certify_work}
}
