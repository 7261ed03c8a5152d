#!/usr/bin/env bash
# results_secrets.t: no password leaves the process, in any option or connection string: not
# in the result file (command line, options), --report-format=json, the text and verbose
# output, error lines that echo a connection string, a mistyped option's line, a sweep's
# files, nor what compare and merge print of a file written before connection strings were
# masked. Covers --mysql-password, --pgsql-password, a libpq conninfo string in --pgsql-db
# (quoted, with blanks), a URI (postgresql://user:pw@host) and a config file.
. "$(dirname "$0")/../lib/tap.sh"

py() { python3 - "$@"; }

# Every secret here has a word no other output holds, so one grep finds any of them.
conninfo="dbname=sb password='Hush Conninfo' sslmode=disable"
uri="postgresql://bob:HushUri@127.0.0.1:1/sb"
secrets="HushConninfo|Hush Conninfo|HushUri|HushMy|HushPg|HushCfg|HushLua"
leaks() {   # leaks TEXT: the secrets TEXT holds, or nothing
  printf '%s\n' "$1" | grep -oE "$secrets" | sort -u | tr '\n' ' '
}

# ---- the result file and --report-format=json ----------------------------------------------
sb cpu --events=20 --cpu-max-prime=500 --pgsql-db="$conninfo" --pgsql-host="$uri" \
   --mysql-password=HushMy --pgsql-password=HushPg --report-file=r.json run
is "$rc" 0 "a run given a conninfo string, a URI and two passwords"
is "$(leaks "$(cat "$TEST_TMP/r.json")")" "" "the result file holds none of them"
is "$(py "$TEST_TMP/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
o = r["options"]
print(o["pgsql_db"], "|", o["pgsql_host"], "|", o["mysql_password"], "|", o["pgsql_password"])
print([a for a in r["command_line"] if a.startswith("--pgsql-db=")][0])
PY
)" "dbname=sb password=***** sslmode=disable | postgresql://bob:*****@127.0.0.1:1/sb | ***** | *****
--pgsql-db=dbname=sb password=***** sslmode=disable" \
   "options and command line: the passwords masked, the rest of each value kept"
is "$(leaks "$out$err")" "" "the text report holds none of them"

sb cpu --events=20 --cpu-max-prime=500 --pgsql-db="$conninfo" --mysql-password=HushMy \
   --report-format=json run
is "$rc|$(leaks "$out$err")" "0|" "--report-format=json: standard output and error hold none"

printf 'pgsql-db=dbname=x password=HushCfg\nmysql-password=HushCfg\n' | write secret.cfg
sb cpu --events=5 --config-file=secret.cfg --report-file=cfg.json run
is "$rc|$(leaks "$(cat "$TEST_TMP/cfg.json")")" "0|" "passwords from a config file stay out of the file"

printf 'mysql-password HushCfg\n' | write noeq.cfg
sb cpu --events=5 --config-file=noeq.cfg run
like "$out$err" "^WARNING: config file 'noeq.cfg' line 1: expected name=value, got '\*\*\*\*\*'; line ignored$" \
     "a config line about a password without its '=': warned about, the line not shown"
is "$(leaks "$out$err")" "" "... no password printed"

# ---- messages ------------------------------------------------------------------------------
sb cpu --events=5 --verbosity=5 --pgsql-db="$conninfo" --mysql-password=HushMy run
is "$rc|$(leaks "$out$err")" "0|" "--verbosity=5 prints none of them"

printf 'sysbench.cmdline.options = {x = {"an option", 1}}\nfunction event() end\n' | write plain.lua
sb plain.lua --events=1 --my-password=HushLua --my-dsn="$uri" run
is "$rc" 1 "a script that does not declare --my-password refuses it"
like "$err" "invalid option: --my-password=\*\*\*\*\*" "the line names the option, its value masked"
is "$(leaks "$out$err")" "" "... and prints no password"

if "$SB" --help | grep -q '^  pgsql - '; then
  # libpq's message for a malformed URI quotes the whole URI
  sb oltp_point_select --db-driver=pgsql --pgsql-db="postgresql://bob:HushUri@[::1/sb" \
     --events=1 --report-file=fail.json run
  is "$rc" 1 "a malformed URI: the connection fails"
  like "$out" 'FATAL: Connection to database failed: .*"postgresql://bob:\*\*\*\*\*@\[::1/sb"' \
       "libpq's line quotes the URI with its password masked"
  is "$(leaks "$out$err")" "" "... and prints no password"
else
  skip "no pgsql driver: libpq's message is not checked"
  skip "no pgsql driver"
  skip "no pgsql driver"
fi

# ---- a sweep's files -------------------------------------------------------------------------
sb cpu --threads=1,2 --events=10 --cpu-max-prime=500 --pgsql-db="$conninfo" \
   --mysql-password=HushMy --report-file=s.json run
is "$rc" 0 "a sweep given passwords"
is "$(leaks "$(cat "$TEST_TMP/s.json" "$TEST_TMP/s.svg" "$TEST_TMP/s.html")$out$err")" "" \
   "its result file, chart, page and output hold none of them"

# ---- compare and merge of a file that holds a password (written before masking) ------------
py "$TEST_TMP/r.json" > "$TEST_TMP/leaky.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][0]
r["options"]["pgsql_db"] = "dbname=sb password=HushConninfo"
r["command_line"].append("--pgsql-db=postgresql://bob:HushUri@h/sb")
print(json.dumps(d))
PY
is "$(grep -cE "$secrets" "$TEST_TMP/leaky.json")" 1 "leaky.json holds passwords"
sb compare leaky.json r.json --html=leaky.html
is "$rc|$(leaks "$out$err$(cat "$TEST_TMP/leaky.html")")" "0|" \
   "compare: its text and its page show none of them"
sb merge leaky.json cfg.json
is "$rc|$(leaks "$out$err")" "0|" "merge: the merged document holds none of them"

done_testing
