# time_v.sh -- sourced by the bench scripts: figures from a `/usr/bin/time -v` log.
# tv_wall LOG: the elapsed wall-clock seconds; tv_peak_mb LOG: the peak RSS in MB.
tv_wall() { grep "Elapsed (wall clock)" "$1" | awk '{print $NF}' | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }'; }
tv_peak_mb() { grep "Maximum resident" "$1" | awk '{printf "%.0f", $NF / 1024}'; }
