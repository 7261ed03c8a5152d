#!/usr/bin/env bash
# mysql_tls.t: --mysql-ssl against a private MariaDB with TLS and a generated CA: each mode
# (disabled, preferred, required, verify_ca, verify_identity, and 1.0.20's on) gives every
# connection the TLS it promises (Ssl_cipher per connection), a CA that did not sign the
# server's certificate is refused under verify_ca, and wrong settings are one clear line.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/mysql.sh"

mysql_sandbox_start --tls

# Each thread prints its connection's cipher ("-" for none).
write cipher.lua <<'EOF'
function thread_init(tid)
  con = sysbench.sql.driver():connect()
  local _, cipher = con:query_row("SHOW SESSION STATUS LIKE 'Ssl_cipher'")
  print("cipher " .. (cipher ~= nil and cipher ~= "" and cipher or "-"))
end
function event() con:query("SELECT 1") end
EOF

ciphers() {   # the distinct ciphers the threads printed, or "-" for none
  printf '%s\n' "$out" | sed -n 's/^cipher //p' | sort -u | tr '\n' ' ' | sed 's/ $//'
}
threads_reporting() {
  count "$out" '^cipher '
}

run() { my cipher.lua run --threads=4 --events=8 --time=0 "$@"; }

run --mysql-ssl=disabled
is "$rc/$(ciphers)" "0/-" "disabled: plain connections"
run
is "$rc/$(ciphers)" "0/-" "the default is no TLS"

for mode in preferred required "required --mysql-ssl-ca=$MYSQL_SSL_CA" \
            "verify_ca --mysql-ssl-ca=$MYSQL_SSL_CA" "verify_identity --mysql-ssl-ca=$MYSQL_SSL_CA" \
            "REQUIRED"; do
  # shellcheck disable=SC2086
  run --mysql-ssl=$mode
  is "$rc" 0 "--mysql-ssl=$mode: runs"
  is "$(threads_reporting)" 4 "--mysql-ssl=$mode: 4 connections"
  like "$(ciphers)" "^[A-Z0-9_-]+$" "--mysql-ssl=$mode: every connection has a TLS cipher"
done

run --mysql-ssl=required --mysql-ssl-ca="$MYSQL_SSL_CA" --mysql-ssl-cert="$MYSQL_SSL_CERT" \
  --mysql-ssl-key="$MYSQL_SSL_KEY"
is "$rc/$(threads_reporting)" "0/4" "required with a client certificate and key"

# 1.0.20's boolean spelling: "on" reads cacert.pem, client-cert.pem, client-key.pem from the
# current directory.
sb_in "$MYSQL_SSL_DIR" "$TEST_TMP/cipher.lua" run --threads=2 --events=2 --time=0 \
  "${MYSQL_ARGS[@]}" --mysql-ssl=on
is "$rc/$(threads_reporting)" "0/2" "--mysql-ssl=on from the directory with the 1.0.20 file names"
like "$(ciphers)" "^[A-Z0-9_-]+$" "--mysql-ssl=on gives TLS connections"
sb_in "$MYSQL_SSL_DIR" "$TEST_TMP/cipher.lua" run --threads=2 --events=2 --time=0 \
  "${MYSQL_ARGS[@]}" --mysql-ssl
is "$rc/$(threads_reporting)" "0/2" "a bare --mysql-ssl means on, as in 1.0.20"
run --mysql-ssl=off
is "$rc/$(ciphers)" "0/-" "--mysql-ssl=off is disabled"

if have_ref; then
  (cd "$MYSQL_SSL_DIR" && "$REF_SB" "$TEST_TMP/cipher.lua" run --threads=2 --events=2 --time=0 \
     "${MYSQL_ARGS[@]}" --mysql-ssl=on) >"$TEST_TMP/ref.out" 2>&1
  out=$(cat "$TEST_TMP/ref.out")
  like "$(ciphers)" "^[A-Z0-9_-]+$" "the reference 1.0.20's --mysql-ssl=on works on the same files"
else
  skip "no reference sysbench at $REF_SB"
fi

sb_in "$TEST_TMP" "$TEST_TMP/cipher.lua" run --threads=1 --events=1 --time=0 "${MYSQL_ARGS[@]}" \
  --mysql-ssl=on
is "$rc" 1 "--mysql-ssl=on without the files exits 1"
like "$out" "^FATAL: error 2026: .*client-key\.pem, client-cert\.pem and cacert\.pem" \
  "... saying which files it looked for"

# A CA that did not sign the server's certificate.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=Other CA" \
  -keyout "$TEST_TMP/other-key.pem" -out "$TEST_TMP/other-ca.pem" >/dev/null 2>&1
run --mysql-ssl=verify_ca --mysql-ssl-ca="$TEST_TMP/other-ca.pem" --threads=1
is "$rc" 1 "verify_ca with a CA that did not sign the server's certificate exits 1"
like "$out" "^FATAL: error 2026: .*certificate" \
  "... with a certificate error"

run --mysql-ssl=verify_ca --threads=1
is "$rc" 1 "verify_ca without --mysql-ssl-ca exits 1"
like "$out" "FATAL: --mysql-ssl=verify_ca needs the CA that signed the server's certificate: give it with --mysql-ssl-ca=FILE" \
  "... saying what to add"

run --mysql-ssl=sometimes --threads=1
is "$rc" 1 "an unknown --mysql-ssl mode exits 1"
like "$out" "FATAL: Invalid value for --mysql-ssl: sometimes \(expected disabled, preferred, required, verify_ca, verify_identity, or on\|off\)" \
  "... listing the modes"

done_testing
