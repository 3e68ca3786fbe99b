# Shell functions the bench scripts share (sourced, not run).

# The median of the numbers on stdin, one per line.
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# The timings_s entries KEY... of a surrox summary.json FILE (wherever in it timings_s sits), on
# one line; 0 for a key it lacks.
surrox_timings() {
  python3 - "$@" <<'PY'
import json, sys
def find(node, key):
    if isinstance(node, dict):
        if key in node: return node[key]
        for v in node.values():
            r = find(v, key)
            if r is not None: return r
    return None
t = find(json.load(open(sys.argv[1])), "timings_s")
print(" ".join(str(t.get(k, 0)) for k in sys.argv[2:]))
PY
}
