#!/usr/bin/env bash
# bench_lib.t: the helpers the bench/ scripts share (bench/lib.sh) read their command lines and
# do their arithmetic right; the scripts themselves are timed by hand, not here.
. "$(dirname "$0")/../lib/tap.sh"

write fake_bench.sh <<'SH'
#!/usr/bin/env bash
# fake_bench.sh: a bench script for the test.
#
#   fake_bench.sh [--rounds R] [--no-tidb]
set -euo pipefail
. "$BENCH_LIB"
rounds=3 tidb=1 who=us
bench_options "rounds=rounds sb=who no-tidb:tidb=0" "$@"
echo "rounds=$rounds tidb=$tidb who=$who"
SH
fake() { out=$(BENCH_LIB="$SRCDIR/bench/lib.sh" bash "$TEST_TMP/fake_bench.sh" "$@" 2>&1); rc=$?; }

fake
is "$out" "rounds=3 tidb=1 who=us" "bench_options: the defaults stand without arguments"
fake --rounds 5 --sb=/x/y --no-tidb
is "$out" "rounds=5 tidb=0 who=/x/y" "bench_options: --NAME VALUE, --NAME=VALUE and a switch"
fake --rounds=a=b
is "$out" "rounds=a=b tidb=1 who=us" "bench_options: the value is everything after the first '='"
fake --rounds
is "$rc" 1 "bench_options: an option without its value fails"
like "$out" "^fake_bench.sh: --rounds needs a value$" "... saying which option lacks it"
fake --no-tidb=1
like "$out" "^fake_bench.sh: --no-tidb takes no value$" "bench_options: a switch refuses a value"
fake --bogus
is "$rc" 2 "bench_options: an unknown option exits 2"
like "$out" "^fake_bench.sh: unknown argument '--bogus'$" "... naming it"
like "$out" "^  fake_bench.sh \[--rounds R\] \[--no-tidb\]$" "... and shows the usage"
fake stray
is "$rc" 2 "bench_options: a word that is no option exits 2"
fake --help
is "$rc" 0 "--help exits 0"
like "$out" "^fake_bench.sh: a bench script for the test.$" "--help prints the header comment"
unlike "$out" "set -euo|rounds=" "... and nothing after it"

# shellcheck source=bench/lib.sh
. "$SRCDIR/bench/lib.sh"
is "$(bench_median 5 1 3)" 3 "bench_median of an odd count"
is "$(bench_median 4 1 3 2)" 2.5 "bench_median of an even count: the mean of the middle two"
is "$(bench_ratio 3 2)" 1.50x "bench_ratio: two decimals and an x"

done_testing
