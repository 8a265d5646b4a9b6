#!/bin/sh
# test_faults_trust.sh — nothing from another user is trusted, and nothing hangs (the real binary; every run
# bounded by `timeout`, before any connection: 127.0.0.1 on a closed port is never reached).
#   - a FIFO as the configuration file, $LAGTOP_CONFIG, --command-config, --from-file, --replay or a theme: one line,
#     at once;
#   - a configuration file others can write, or another user owns (root only: chown nobody), is refused;
#   - a property that runs a program (sasl.kerberos.kinit.cmd) is refused from the file without
#     --allow-exec-config, and the program never runs;
#   - a 10 MB configuration value is refused quickly;
#   - --undo refuses a symlinked state directory and another user's newest backup;
#   - a running lagtop writes no core (its core size limit is 0);
#   - a 33 KB recording whose one record decompresses to 1 GiB is refused without allocating it.
. "$LT_SRCDIR/tests/lib/tap.sh"
plan 27
lt_tmpdir
export HOME="$LT_TMP/home" XDG_CONFIG_HOME="$LT_TMP/home/.config" XDG_STATE_HOME="$LT_TMP/state"
mkdir -p "$HOME" "$XDG_STATE_HOME"
unset LAGTOP_CONFIG
closed_port=$("$DEBIAN_PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
B="127.0.0.1:$closed_port"
root=no
[ "$(id -u)" = 0 ] && root=yes
nobody_note() { [ "${CI:-}" = true ] && [ $root = no ] && return 1; [ $root = no ] && diag "skip: files owned by another user need root"; return 0; }

RUN_LIMIT=10 # run_lagtop: every case here should end at once
one_line() { [ "$(wc -l <"$LT_TMP/err")" -eq 1 ]; }

mkfifo "$LT_TMP/fifo"
run_lagtop --config "$LT_TMP/fifo" --once -b "$B" --timeout 1s
is "FIFO as --config: exit 2 at once" "$rc:$secs" "2:0"
like "FIFO as --config: named, one line" "$err" "^lagtop: .*/fifo: not a regular file$"
LAGTOP_CONFIG="$LT_TMP/fifo" run_lagtop --once -b "$B" --timeout 1s
is "FIFO as \$LAGTOP_CONFIG: exit 2 at once" "$rc:$secs" "2:0"
like "FIFO as \$LAGTOP_CONFIG: named" "$err" "/fifo: not a regular file$"
run_lagtop --once -b "$B" --timeout 1s --command-config "$LT_TMP/fifo"
is "FIFO as --command-config: exit 2 at once" "$rc:$secs" "2:0"
like "FIFO as --command-config: named" "$err" "^lagtop: --command-config .*/fifo: not a regular file$"
run_lagtop --reset-offsets -g g --from-file "$LT_TMP/fifo" -b "$B" --timeout 1s
is "FIFO as --from-file: exit 2 at once" "$rc:$secs" "2:0"
like "FIFO as --from-file: named" "$err" "^lagtop: Unable to read file .*/fifo: not a regular file$"
mkdir -p "$XDG_CONFIG_HOME/lagtop/themes"
run_lagtop --replay "$LT_TMP/fifo" --once
is "FIFO as --replay: exit 2 at once" "$rc:$secs" "2:0"
like "FIFO as --replay: named" "$err" "^lagtop: cannot open .*/fifo: not a regular file$"
mkfifo "$XDG_CONFIG_HOME/lagtop/themes/fifo.conf"
run_lagtop --theme fifo -b "$B" </dev/null
is "FIFO as a theme: exit 2 at once" "$rc:$secs" "2:0"
like "FIFO as a theme: named" "$err" "^lagtop: theme: cannot read the file .*/themes/fifo.conf: not a regular file$"
rm "$XDG_CONFIG_HOME/lagtop/themes/fifo.conf"

# a configuration file others can write
conf="$LT_TMP/lagtop.conf"
printf 'clusters = { a = { bootstrap_servers = "%s"; }; };\n' "$B" >"$conf"
chmod 0666 "$conf"
run_lagtop --config "$conf" -c a --once --timeout 1s
is "world-writable config: exit 2" "$rc" 2
is "world-writable config: the refusal and its fix" "$err" "lagtop: refusing $conf: writable by others (chmod go-w $conf)"
chmod 0664 "$conf"
mkdir -p "$XDG_CONFIG_HOME/lagtop"
cp "$conf" "$XDG_CONFIG_HOME/lagtop/lagtop.conf"
chmod 0664 "$XDG_CONFIG_HOME/lagtop/lagtop.conf"
run_lagtop -c a --once --timeout 1s
like "group-writable config found by the search path: refused" "$err" "^lagtop: refusing .*/lagtop.conf: writable by its group"
rm -f "$XDG_CONFIG_HOME/lagtop/lagtop.conf"
chmod 0644 "$conf"
if [ $root = yes ]; then
	chown nobody "$conf"
	run_lagtop --config "$conf" -c a --once --timeout 1s
	like "another user's config: refused" "$err" "^lagtop: refusing .*: owned by uid [0-9]+, not by you"
	chown 0 "$conf"
else
	ok "another user's config (needs root)" nobody_note
fi

# a property that runs a program, from the user's own file: refused without --allow-exec-config
marker="$LT_TMP/kinit-ran"
cat >"$conf" <<EOC
clusters = { a = { bootstrap_servers = "$B";
  properties = [ "security.protocol=SASL_PLAINTEXT", "sasl.mechanisms=GSSAPI",
                 "sasl.kerberos.kinit.cmd=touch $marker" ]; }; };
EOC
chmod 0600 "$conf"
run_lagtop --config "$conf" -c a --once --timeout 2s
is "kinit.cmd in the file: exit 2" "$rc" 2
like "kinit.cmd in the file: named with file:line and the option" "$err" "^lagtop: .*lagtop.conf:3: .*'sasl.kerberos.kinit.cmd' runs a program or loads code; .*--allow-exec-config"
ok "kinit.cmd in the file: never ran" test ! -e "$marker"
run_lagtop --help
like "--help names --allow-exec-config" "$(cat "$LT_TMP/out")" "--allow-exec-config"

# a 10 MB value: refused by size before libconfig reads it
"$DEBIAN_PYTHON" -c 'import sys; sys.stdout.write("general = { theme = \"" + "a" * (10 << 20) + "\"; };\n")' >"$conf"
run_lagtop --config "$conf" --once -b "$B" --timeout 1s
is "10 MB value: exit 2 at once" "$rc:$secs" "2:0"
like "10 MB value: one line" "$err" "^lagtop: refusing .*lagtop.conf: [0-9]+ bytes, over the 1 MiB a configuration file may have$"

# --undo: a symlinked state directory, another user's backup
mkdir -p "$LT_TMP/elsewhere/backups"
printf 't,0,999\n' >"$LT_TMP/elsewhere/backups/g.20261129T100000.000Z.csv"
chmod 0600 "$LT_TMP/elsewhere/backups/g.20261129T100000.000Z.csv"
chmod 0700 "$LT_TMP/elsewhere" "$LT_TMP/elsewhere/backups"
ln -s "$LT_TMP/elsewhere" "$XDG_STATE_HOME/lagtop"
run_lagtop --undo g -b "$B" --timeout 1s
like "--undo: a symlinked state directory is refused" "$err" "^lagtop: refusing .*/state/lagtop: a symbolic link"
rm "$XDG_STATE_HOME/lagtop"
mv "$LT_TMP/elsewhere" "$XDG_STATE_HOME/lagtop"
if [ $root = yes ]; then
	chown nobody "$XDG_STATE_HOME/lagtop/backups/g.20261129T100000.000Z.csv"
	run_lagtop --undo g -b "$B" --timeout 1s
	like "--undo: another user's newest backup is refused, never committed" "$err" "^lagtop: refusing .*g\.20261129T100000\.000Z\.csv: owned by uid [0-9]+"
else
	ok "--undo: another user's backup (needs root)" nobody_note
fi

# no core: the limits of a running lagtop (--once waiting on a closed port); both soft and hard are 0 (an
# ASan build already sets the soft limit to 0 itself, so the hard one is what tells). Read until they are 0 (bounded):
# the first read can come between timeout's fork and lagtop's own setrlimit, while the child still has the shell's.
( ulimit -H -c unlimited 2>/dev/null; ulimit -S -c unlimited 2>/dev/null; exec timeout -s KILL 10 "$LAGTOP" --once -b "$B" --timeout 3s >/dev/null 2>&1 ) &
pid=$!
limits=""
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	sleep 0.1
	child=$(pgrep -P "$pid" 2>/dev/null | head -1)
	[ -n "$child" ] && limits=$(grep 'Max core file size' "/proc/$child/limits" 2>/dev/null) &&
		printf '%s\n' "$limits" | grep -qE '^Max core file size +0 +0 ' && break
done
wait "$pid"
like "a running lagtop's core size limit is 0" "$limits" "^Max core file size +0 +0 "

# a decompression bomb: one keyframe whose zstd frame (RLE blocks, 33 KB) declares and holds 1 GiB
"$DEBIAN_PYTHON" - "$LT_TMP/bomb.lagrec" <<'EOP'
import struct, sys
def crc32c(data, crc=0):
    t = crc32c.table
    crc ^= 0xFFFFFFFF
    for b in data:
        crc = t[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF
crc32c.table = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    crc32c.table.append(c)
GIB, BLOCK = 1 << 30, 1 << 17
# zstd frame: magic, descriptor (8-byte content size, window descriptor), 128 KiB window, RLE blocks of zeros
z = bytearray(struct.pack('<IBB', 0xFD2FB528, 0xC0, 7 << 3) + struct.pack('<Q', GIB))
n = GIB // BLOCK
for i in range(n):
    hdr = (BLOCK << 3) | (1 << 1) | (1 if i == n - 1 else 0)
    z += struct.pack('<I', hdr)[:3] + b'\0'
fh = bytearray(b'LAGTOPRC' + struct.pack('<HHI', 3, 32, 17) + bytes(12))
fh += struct.pack('<I', crc32c(bytes(fh)))
h = bytearray(b'K\0\0\0' + struct.pack('<IqI', len(z), 1, GIB))
h += struct.pack('<I', crc32c(bytes(z), crc32c(bytes(h))))
open(sys.argv[1], 'wb').write(bytes(fh + h + z))
EOP
timeout -s KILL 60 /usr/bin/time -v "$LAGTOP" --replay "$LT_TMP/bomb.lagrec" --once >"$LT_TMP/out" 2>"$LT_TMP/err"
rc=$?
peak_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$LT_TMP/err")
diag "bomb: exit $rc, peak RSS ${peak_kb:-?} KB, $(wc -c <"$LT_TMP/bomb.lagrec") bytes on disk"
like "bomb: refused, naming the record" "$(grep -v "has no index\|Command being\|^	" "$LT_TMP/err")" "^lagtop: .*bomb\.lagrec: record 1 at byte 32 does not decompress \(its stated length is not believable"
ok "bomb: peak RSS stays under 400 MB" test "${peak_kb:-999999999}" -lt 400000
done_testing
