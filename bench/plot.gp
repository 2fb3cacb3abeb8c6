# plot.gp - start-up median per tool and profile (docs/benchmarks-startup.png)
# usage: gnuplot -e "datafile='results/startup-chart.dat'; outfile='../docs/benchmarks-startup.png'; subtitle='...'" plot.gp
# datafile columns: config true_median_ms python_median_ms true_label python_label
# (a configuration whose runs all failed has 0 and the label "failed")
if (!exists("datafile")) datafile = 'results/startup-chart.dat'
if (!exists("outfile")) outfile = '../docs/benchmarks-startup.png'
if (!exists("subtitle")) subtitle = ''

set terminal pngcairo size 1400,620 font ",10" noenhanced
set output outfile
set multiplot layout 1,2 title "Sandlock start-up: median wall time per run (ms), lower is better\n".subtitle
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.8
set grid ytics
set yrange [0:*]
set xtics rotate by -40 left nomirror
set ylabel "ms"
set key off
set offsets 0, 0, graph 0.1, 0

set title "/bin/true"
plot datafile using 2:xtic(1) lc rgb "#4477aa", \
     '' using 0:2:4 with labels offset 0,0.7 font ",8"

set title "python3 -c pass"
plot datafile using 3:xtic(1) lc rgb "#ee6677", \
     '' using 0:3:5 with labels offset 0,0.7 font ",8"
unset multiplot
