import re, sys, glob, datetime, statistics
# Gaps between consecutive lake commits of each table, from the instances' logs of one phase: a record written just
# after a round read its table waits until the next commit, so the gap bounds the table's sync latency.
phase = sys.argv[1]; skip = float(sys.argv[2])  # seconds of warm-up to skip from the first commit
pat = re.compile(r'^(\d\d:\d\d:\d\d\.\d+) .*Table (scale\.t\d+): tiered (\d+) records into lake snapshot (\d+)')
commits = {}
for f in glob.glob(f'/tmp/metering-scale/data/phase-{phase}/instance-*.log'):
    for line in open(f, errors='replace'):
        m = pat.match(line)
        if m:
            t = datetime.datetime.strptime(m.group(1), '%H:%M:%S.%f')
            commits.setdefault(m.group(2), []).append(t)
allt = sorted(t for v in commits.values() for t in v)
start = allt[0] + datetime.timedelta(seconds=skip)
p99s = []
for table, ts in commits.items():
    ts.sort()
    gaps = [(b - a).total_seconds() for a, b in zip(ts, ts[1:]) if a >= start]
    if gaps:
        gaps.sort()
        p99s.append(gaps[min(len(gaps) - 1, int(0.99 * len(gaps)))])
p99s.sort()
print(f'phase {phase}: tables with 2+ commits after warm-up {len(p99s)}, commits {len(allt)}, '
      f'per-table max gap: median {statistics.median(p99s):.1f} s, p90 {p99s[int(0.9*len(p99s))]:.1f} s, worst {p99s[-1]:.1f} s')
