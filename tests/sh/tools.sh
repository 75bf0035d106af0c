#!/bin/sh
# The /bin tools, run through the shell: files and directories (mkdir, cp,
# mv, rm, rmdir, ls, cat, chmod, chown; links: ln, readlink, realpath, stat,
# touch, du), how they read options and
# operands, text (wc, head, tail, grep), users and processes (id, runas,
# kill, ps, env), the system (uname, free, mount), and what diff_tools.c
# cannot compare with the host: watch's redrawn screens, more, the printf
# builtin. Expected outputs are what GNU coreutils print. Prints TAP; exits
# with the number of failures.

n=0
failed=0
d=${TMPDIR:-/tmp}/tooltest.$$

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }

# same GOT EXPECTED DESCRIPTION
same() {
	if [ "$1" = "$2" ]; then
		ok "$3"
	else
		not_ok "$3"
		echo "#   got:      '$1'"
		echo "#   expected: '$2'"
	fi
}

# status WANT DESCRIPTION COMMAND...: the command's exit status is WANT
status() {
	want=$1 what=$2
	shift 2
	"$@" > /dev/null 2>&1
	same "$?" "$want" "$what"
}

# -- files and directories ----------------------------------------------------
status 0 "mkdir -p makes missing parents" mkdir -p "$d/a/b/c"
status 1 "mkdir of an existing directory fails" mkdir "$d/a"
echo "hello" > "$d/a/f"
status 0 "cp copies a file" cp "$d/a/f" "$d/g"
same "$(cat "$d/g")" "hello" "the copy has the contents"
status 0 "cp -r copies a tree" cp -r "$d/a" "$d/copy"
same "$(cat "$d/copy/f")" "hello" "files inside the copied tree"
status 0 "mv renames" mv "$d/g" "$d/h"
status 1 "the old name is gone" cat "$d/g"
same "$(ls "$d")" "a
copy
h" "ls lists a directory sorted"
same "$(ls -d "$d/a")" "$d/a" "ls -d names the directory itself"
status 1 "rmdir refuses a non-empty directory" rmdir "$d/a"
status 0 "rm -r removes a tree" rm -r "$d/copy"
same "$(ls "$d")" "a
h" "and it is gone"
status 1 "rm of a missing file fails" rm "$d/missing"
status 0 "rm -f of a missing file succeeds" rm -f "$d/missing"
status 1 "cat of a directory fails" cat "$d/a"
chmod 640 "$d/h"
l=$(ls -l "$d/h")
same "${l%% *}" "-rw-r-----" "chmod with an octal mode, seen by ls -l"
chmod u+x,o+r "$d/h"
l=$(ls -l "$d/h")
same "${l%% *}" "-rwxr--r--" "chmod with a symbolic mode"
status 1 "chmod of a missing file fails" chmod 600 "$d/missing"
set -- $(ls -l /dev/null)
same "$1 $5 $6" "crw-rw-rw- 1, 3" "ls -l of a device shows its numbers, MAJ, MIN"
# ls -l /proc/self/fd: ls's own descriptors, each a link to its file
# (0 from /dev/null, 3 from a file; 4 is the directory ls reads)
echo x > "$d/fdfile"
fdlines() {
	while read mode links u g size m day yt name arrow target; do
		case $name in
		0|3) echo "$mode $name $arrow $target" ;;
		esac
	done
}
same "$(ls -l /proc/self/fd < /dev/null 3< "$d/fdfile" | fdlines)" "lr-x------ 0 -> /dev/null
lr-x------ 3 -> $d/fdfile" "ls -l /proc/self/fd shows each descriptor as a link to its file"
rm -f "$d/fdfile"

# -- how the tools read options and operands (user/bin/lib) ----------------------------
mkdir "$d/o" "$d/o/r" "$d/o/t" "$d/o/to"
echo one > "$d/o/f"
for l in a b c; do echo $l; done > "$d/o/abc"
same "$(ls -z 2>&1; echo "s=$?")" "ls: invalid option -- 'z'
usage: ls [-1aAdln] [FILE]...
s=2" "an unknown option: the message, the usage and the tool's status"
same "$(cat -z 2>&1; echo "s=$?")" "cat: invalid option -- 'z'
s=1" "cat tells an unknown option without a usage line"
same "$(grep -e 2>&1; echo "s=$?")" "grep: option requires an argument -- 'e'
s=2" "an option without its argument"
same "$(grep -ne one "$d/o/f")" "1:one" "an option's argument in the next word, after grouped letters"
same "$(grep -eone "$d/o/f")" "one" "an option's argument in the same word"
same "$(ls "$d/o/to" -d)" "$d/o/to" "options after the operands (GNU-style)"
same "$(cd "$d/o" && ls -- -a 2>&1; echo "s=$?")" "ls: cannot access '-a': No such file or directory
s=2" "-- ends the options"
same "$(cat "$d/o/f" -u 2>&1; echo "s=$?")" "one
cat: -u: No such file or directory
s=1" "cat's options end at the first operand (POSIX-style)"
same "$(echo in | cat -u -)" "in" "- is an operand: standard input"
same "$(cd "$d/o" && rmdir r -v 2>&1; echo "s=$?")" "rmdir: -v: No such file or directory
s=1" "rmdir's options end at the first operand"
mkdir -m 700 "$d/o/m1" && mkdir -m750 "$d/o/m2"
l=$(ls -ld "$d/o/m1")
l2=$(ls -ld "$d/o/m2")
same "${l%% *} ${l2%% *}" "drwx------ drwxr-x---" "mkdir -m MODE and -mMODE"
same "$(mkdir -m 2>&1; echo "s=$?")" "mkdir: option requires an argument -- 'm'
s=1" "mkdir -m without a mode"
same "$(head -2 "$d/o/abc")" "a
b" "head's old -N form"
same "$(head -n x "$d/o/abc" 2>&1; echo "s=$?")" "head: invalid number of lines: 'x'
s=1" "head -n with a bad count"
same "$(head -f "$d/o/abc" 2>&1; echo "s=$?")" "head: invalid option -- 'f'
usage: head [-n [-]N | -c [-]N] [-qv] [FILE]...
s=1" "head takes no -f (tail does)"
same "$(tail -c2 "$d/o/abc")" "c" "tail -cN"
chmod 644 "$d/o/f"
(umask 022; chmod -w "$d/o/f")
l=$(ls -l "$d/o/f")
same "${l%% *}" "-r--r--r--" "chmod -w: a mode starting with '-' is the mode"
echo x > "$d/o/t/x"
chmod 755 "$d/o/t"
chmod 644 "$d/o/t/x"
same "$(chmod -R -v 700 "$d/o/t")" "mode of '$d/o/t' changed from 0755 (rwxr-xr-x) to 0700 (rwx------)
mode of '$d/o/t/x' changed from 0644 (rw-r--r--) to 0700 (rwx------)" "chmod -R -v: the directory, then what is in it"
same "$(chown -Rv 5:6 "$d/o/t")" "changed ownership of '$d/o/t' from root:root to 5:6
changed ownership of '$d/o/t/x' from root:root to 5:6" "chown -R -v"
same "$(chown -v 5. "$d/o/t/x")" "ownership of '$d/o/t/x' retained as 5:6" "chown UID. keeps the group"
same "$(chown x "$d/o/t" 2>&1; echo "s=$?")" "chown: invalid owner: 'x'
s=1" "chown of a bad owner"
same "$(cp "$d/o/f" 2>&1; echo "s=$?")" "cp: missing destination file operand after '$d/o/f'
s=1" "cp with one operand"
same "$(mv 2>&1; echo "s=$?")" "mv: missing file operand
s=1" "mv with none"
same "$(cp "$d/o/f" "$d/o/abc" "$d/o/f" 2>&1; echo "s=$?")" "cp: target '$d/o/f': Not a directory
s=1" "several sources need a directory"
same "$(cp -v "$d/o/f" "$d/o/abc" "$d/o/to/")" "'$d/o/f' -> '$d/o/to/f'
'$d/o/abc' -> '$d/o/to/abc'" "cp into a directory: each source under its last name"
same "$(mv -v "$d/o/to/f" "$d/o/t/" "$d/o/m1")" "renamed '$d/o/to/f' -> '$d/o/m1/f'
renamed '$d/o/t/' -> '$d/o/m1/t'" "mv into a directory (a source's trailing / ignored)"
same "$(rm -r "$d/o/." 2>&1; echo "s=$?")" "rm: refusing to remove '.' or '..' directory: skipping '$d/o/.'
s=1" "rm refuses ."

# -- links and file status: ln, readlink, realpath, stat, touch, du, ls -l ----------
mkdir "$d/l" "$d/l/sub"
echo hello > "$d/l/f"
ln -s f "$d/l/s" && same "$(readlink "$d/l/s")" "f" "ln -s: readlink shows the text" || not_ok "ln -s"
ln "$d/l/f" "$d/l/h" && same "$(cat "$d/l/h")" "hello" "ln: a hard link reads the same" || not_ok "ln"
same "$(ln -s g "$d/l/s" 2>&1; echo "s=$?")" "ln: failed to create symbolic link '$d/l/s': File exists
s=1" "ln -s over an existing name: GNU's message, status 1"
same "$(ln "$d/l/nothing" "$d/l/x" 2>&1; echo "s=$?")" "ln: failed to access '$d/l/nothing': No such file or directory
s=1" "ln of a missing file"
ln -sf g "$d/l/s" && same "$(readlink "$d/l/s")" "g" "ln -sf replaces the link"
ln -s ../f "$d/l/sub" && same "$(readlink "$d/l/sub/f")" "../f" "ln -s into a directory: under the target's name"
(cd "$d/l/sub" && ln -s ../h) && same "$(readlink "$d/l/sub/h")" "../h" "ln -s TARGET alone: in the working directory"
status 1 "readlink of a file: status 1" readlink "$d/l/f"
same "$(readlink "$d/l/f"; echo "s=$?")" "s=1" "... quietly"
ln -s sub "$d/l/dl"
same "$(readlink -f "$d/l/dl/../f")" "$d/l/f" "readlink -f: .. after a link is the target's parent"
same "$(readlink -f "$d/l/dl/new")" "$d/l/sub/new" "readlink -f: the last component may be missing"
same "$(realpath "$d/l/dl/f")" "$d/l/f" "realpath follows every link"
same "$(realpath "$d/l/dl/none/x" 2>&1; echo "s=$?")" "realpath: $d/l/dl/none/x: No such file or directory
s=1" "realpath of a missing directory: status 1"
same "$(realpath -e "$d/l/dl/new" 2>&1; echo "s=$?")" "realpath: $d/l/dl/new: No such file or directory
s=1" "realpath -e: the last must exist too"
case "$(ls -l "$d/l/dl")" in
*" $d/l/dl -> sub") ok "ls -l shows 'name -> target'" ;;
*) not_ok "ls -l shows 'name -> target'"; ls -l "$d/l/dl" ;;
esac
ln -s /bin/echo "$d/l/e" && same "$("$d/l/e" through a link)" "through a link" "a program run through a link"
stat "$d/l/s" > "$d/l.stat"
same "$(head -1 "$d/l.stat")" "  File: $d/l/s -> g" "stat: File: name -> target"
grep -q "^  Size: 1 .*symbolic link$" "$d/l.stat" && ok "stat: size and type of a link" || not_ok "stat: size and type of a link"
grep -q "^Access: (0777/lrwxrwxrwx)  Uid: (    0/    root)   Gid: (    0/    root)$" "$d/l.stat" &&
	ok "stat: GNU's Access line" || not_ok "stat: GNU's Access line"
stat "$d/l/f" > "$d/l.stat"
grep -q "Links: 2$" "$d/l.stat" && grep -q "regular file$" "$d/l.stat" && grep -q "^ Birth: -$" "$d/l.stat" &&
	ok "stat: a file with two names has Links: 2" || not_ok "stat: a file with two names has Links: 2"
same "$(stat -L "$d/l/dl" | head -1)" "  File: $d/l/dl" "stat -L follows"
same "$(stat "$d/l/none" 2>&1; echo "s=$?")" "stat: cannot statx '$d/l/none': No such file or directory
s=1" "stat of nothing"
touch "$d/l/t" && same "$(wc -c < "$d/l/t")" "0" "touch creates an empty file"
touch -c "$d/l/t2" && [ ! -e "$d/l/t2" ] && ok "touch -c creates nothing" || not_ok "touch -c creates nothing"
touch "$d/l/f" && same "$(cat "$d/l/f")" "hello" "touch of a file keeps its content"
same "$(touch "$d/l/none/x" 2>&1; echo "s=$?")" "touch: cannot touch '$d/l/none/x': No such file or directory
s=1" "touch in a missing directory"
mkdir "$d/du" "$d/du/a"
head -c 5000 /dev/zero > "$d/du/a/five"
ln "$d/du/a/five" "$d/du/again"
ln -s a "$d/du/link"
same "$(du -s "$d/du")" "8	$d/du" "du -s: 1K blocks, a file with two names once, links not followed"
same "$(du "$d/du")" "8	$d/du/a
8	$d/du" "du: every directory, deepest first"
same "$(du -sh "$d/du/a/five")" "8.0K	$d/du/a/five" "du -sh of a file"
df > "$d/df.out"
same "$(head -1 "$d/df.out")" "Filesystem     1K-blocks  Used Available Use% Mounted on" "df: GNU's header"
grep -qE "^rootfs +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+% /$" "$d/df.out" && ok "df: the root file system's line" ||
	not_ok "df: the root file system's line"
grep -q " /proc$" "$d/df.out" && not_ok "df leaves out /proc (no size)" || ok "df leaves out /proc (no size)"
grep -qE "^proc +0 +0 +0 +- /proc$" "$d/df.out.a" 2>/dev/null || df -a > "$d/df.out.a"
grep -qE "^proc +0 +0 +0 +- /proc$" "$d/df.out.a" && ok "df -a shows /proc with -" || not_ok "df -a shows /proc with -"
same "$(df "$d/l/dl" | tail -1 | grep -c "^rootfs .* /$")" "1" "df FILE: the mount that holds it"
case "$(df -h / | tail -1)" in
rootfs*[0-9][KMG]" "*"% /") ok "df -h: human sizes" ;;
*) not_ok "df -h: human sizes"; df -h / ;;
esac
case "$(df -T /proc/self | tail -1)" in
"proc "*" proc "*" /proc") ok "df -T: the type column" ;;
*) not_ok "df -T: the type column"; df -T /proc/self ;;
esac

# -- text -----------------------------------------------------------------------------
for l in one two three four five; do echo "$l"; done > "$d/t"
same "$(wc -l < "$d/t")" "5" "wc -l counts lines"
same "$(wc -c < "$d/t")" "24" "wc -c counts bytes"
same "$(head -n 2 "$d/t")" "one
two" "head -n"
same "$(tail -n 2 "$d/t")" "four
five" "tail -n"
same "$(grep -n o "$d/t")" "1:one
2:two
4:four" "grep -n prints matching lines with numbers"
same "$(grep -c -v o "$d/t")" "2" "grep -cv counts the lines that do not match"
same "$(grep -i 'T[HW]' "$d/t")" "two
three" "grep -i with a bracket expression"
status 1 "grep exits 1 when nothing matches" grep zzz "$d/t"
status 2 "grep exits 2 for a missing file" grep x "$d/missing"
same "$(echo abc | cat - "$d/t" | head -n 1)" "abc" "cat - reads standard input in a pipeline"
same "$(yes | head -n 3 | wc -l)" "3" "yes | head ends when head does"

# -- users, processes, environment ----------------------------------------------------
same "$(id -u)" "0" "id -u of root"
same "$(runas 5:7 id)" "uid=5 gid=7 groups=7" "runas runs a command as another user"
status 1 "a user cannot remove root's file" runas 5:7 rm -f "$d/h"
status 0 "kill -0 of a live process" kill -0 $$
status 1 "kill of a missing process fails" kill 999999
sleep 30 &
pid=$!
for i in 1 2 3 4 5; do # the child is "sh" until its exec of sleep is done
	ps | grep -q "^ *$pid .*sleep" && break
	sleep 1
done
same "$(ps | grep -c "^ *$pid .*sleep")" "1" "ps lists a background sleep"
kill $pid
wait $pid
same "$?" "143" "kill sends SIGTERM (status 128+15)"
same "$(env -i A=1 B=2 env)" "A=1
B=2" "env -i runs a command with only the given variables"
same "$(uname) $(uname -m)" "Arbor x86_64" "uname and uname -m"
same "$(uname -a)" "$(uname -s -n -r -v -m)" "uname -a is all five fields"
status 1 "uname rejects an unknown option" uname -q
# dmesg: the kernel log. A program's fault report is there (and not in its
# output); -r keeps the level; clearing is root's.
dmesg -C
{ /posix/klog segv > "$d/segv.out" 2>&1; } 2>/dev/null
same "$(cat "$d/segv.out")" "to stdout
to stderr" "a faulting program's output is its own (the report is in the log)"
rep='arbor: pid [0-9]* (klog): page fault at ip 0x[0-9a-f]* (address 0x0*8, write, not present): killed by signal 11$'
same "$(dmesg | grep -c "^\[ *[0-9]*\.[0-9][0-9][0-9][0-9][0-9][0-9]\] $rep")" "1" "dmesg shows the fault report, [seconds.micros] first"
same "$(dmesg -r | grep -c "^<6>\[ *[0-9]*\.[0-9]*\] $rep")" "1" "dmesg -r keeps the level: <6> (KERN_INFO)"
status 1 "a user cannot clear the log" runas 5:7 dmesg -C
status 1 "a user cannot set the console loglevel" runas 5:7 dmesg -n 7
status 1 "dmesg -n rejects a level outside 1..8" dmesg -n 9
status 0 "root sets the console loglevel (info: 7)" dmesg -n info
status 0 "and back to 6 (notice + 1)" dmesg -n 6
same "$(dmesg -c | grep -c "$rep")" "1" "dmesg -c prints the log"
same "$(dmesg | grep -c "$rep")" "0" "then it is cleared"
set -- $(free | grep Mem:)
[ "$2" -gt 0 ] && [ $(($3 + $4 + $6)) -eq "$2" ] && [ "$7" -le "$4" ] && ok "free: used + free + buff/cache = total; available <= free" ||
	not_ok "free: used + free + buff/cache = total; available <= free"
m=$(cat /proc/meminfo)
case $m in *"Cached:"*"SwapTotal:"*"Shmem:"*"KernelStack:"*"PageTables:"*) ok "/proc/meminfo: Linux's lines" ;;
*) not_ok "/proc/meminfo: Linux's lines" ;; esac
status 0 "true" true
status 1 "false" false

# mount and umount (run as root)
same "$(mount | grep ' /proc ')" "proc /proc proc rw 0 0" "mount lists the mounts as /proc/mounts does"
mkdir "$d/m"
mount -t tmpfs -o ro,mode=750 box "$d/m" && ok "mount -t tmpfs -o ro,mode=750" || not_ok "mount -t tmpfs -o ro,mode=750"
same "$(grep '^box ' /proc/mounts)" "box $d/m tmpfs ro,mode=750 0 0" "the new mount in /proc/mounts"
status 1 "a read-only mount refuses new files" sh -c "echo x > $d/m/f"
status 1 "mount of an unknown type fails" mount -t nofs none "$d/m"
umount "$d/m" && ok "umount" || not_ok "umount"
status 1 "umount of a plain directory fails" umount "$d/m"
same "$(cat /proc/self/cgroup | wc -l)" "1" "/proc/self/cgroup is one line"

# cgroups from the shell, as on Linux; cgrun and cgls
home=$(cat /proc/self/cgroup)
home=${home#0::}
mkdir /sys/fs/cgroup/shtest && ok "mkdir a cgroup" || not_ok "mkdir a cgroup"
echo +pids > /sys/fs/cgroup/cgroup.subtree_control
echo $$ > /sys/fs/cgroup/shtest/cgroup.procs
same "$(cat /proc/self/cgroup)" "0::/shtest" "echo \$\$ > cgroup.procs moves the shell"
same "$(cat /sys/fs/cgroup/shtest/pids.max)" "max" "pids files appear with +pids"
echo $$ > "/sys/fs/cgroup$home/cgroup.procs"
same "$(cat /proc/self/cgroup)" "0::$home" "and back"
same "$(cgrun -c shtest/inner cat /proc/self/cgroup)" "0::/shtest/inner" "cgrun -c creates a cgroup and runs a command in it"
status 127 "cgrun of a missing command: 127" cgrun shtest no-such-command
status 125 "cgrun into a missing cgroup: 125" cgrun nonesuch true
cgls /sys/fs/cgroup/shtest > "$d/cgls.out"
same "$(head -1 "$d/cgls.out")" "/sys/fs/cgroup/shtest" "cgls starts at its cgroup"
grep -q inner "$d/cgls.out" && ok "cgls shows the child cgroup" || not_ok "cgls shows the child cgroup"
cgtop -b -n 2 -d 0.2 /sys/fs/cgroup/shtest > "$d/cgtop.out"
case "$(head -1 "$d/cgtop.out")" in
"Control Group "*"%CPU"*"Memory"*"Input/s"*"Output/s"*"Dirty"*"Wback"*"Write/s"*) ok "cgtop -b prints a report" ;;
*) not_ok "cgtop -b prints a report" ;;
esac
grep -q "^/inner " "$d/cgtop.out" && grep -q "^/ " "$d/cgtop.out" && ok "cgtop lists the cgroup and its child" ||
	not_ok "cgtop lists the cgroup and its child"
same "$(grep -c "^Control Group" "$d/cgtop.out")" "2" "cgtop -n 2: two reports"
grep -qE "^/inner +[0-9]+ +[0-9.]+ +- " "$d/cgtop.out" && ok "cgtop: memory - without the memory controller" ||
	not_ok "cgtop: memory - without the memory controller"
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
echo +memory > /sys/fs/cgroup/shtest/cgroup.subtree_control
cgtop -b -d 0.2 /sys/fs/cgroup/shtest > "$d/cgtop.out"
grep -qE "^/inner +[0-9]+ +[0-9.]+ +0B " "$d/cgtop.out" && grep -qE "^/ +[0-9]+ +[0-9.]+ +[0-9.]+[BKM] " "$d/cgtop.out" &&
	ok "cgtop: memory.current where the memory controller is on" ||
	not_ok "cgtop: memory.current where the memory controller is on"
grep -qE "^/inner +[0-9]+ +[0-9.]+ +0B +[^ ]+ +[^ ]+ +0B +0B +0B " "$d/cgtop.out" &&
	ok "cgtop: dirty, writeback and write rate columns (memory.stat, io.stat)" ||
	not_ok "cgtop: dirty, writeback and write rate columns (memory.stat, io.stat)"
echo -memory > /sys/fs/cgroup/shtest/cgroup.subtree_control
echo -memory > /sys/fs/cgroup/cgroup.subtree_control
status 2 "cgtop with a bad option: 2" cgtop -x
rmdir /sys/fs/cgroup/shtest/inner /sys/fs/cgroup/shtest && ok "rmdir the cgroups" || not_ok "rmdir the cgroups"
echo -pids > /sys/fs/cgroup/cgroup.subtree_control

# -- watch, more, printf (the everyday tools that diff_tools cannot compare) ----------
echo 1 > "$d/w"
(sleep 1; echo 2 > "$d/w") &
watch -g -n 0.2 cat "$d/w" > "$d/w.out"
st=$?
wait
tr '\033' E < "$d/w.out" > "$d/w.txt"
n_clear=$(grep -c 'E\[HE\[2J' "$d/w.txt")
[ $st = 0 ] && [ "$n_clear" -ge 2 ] && grep -q "^E\[HE\[2JEvery 0.2s: cat $d/w  *[^ ]*: [A-Z][a-z][a-z] " "$d/w.txt" &&
	[ "$(tail -1 "$d/w.txt")" = 2 ] && grep -qx 1 "$d/w.txt" &&
	ok "watch -g: redraws (clear, title, output) until the output changes" ||
	not_ok "watch -g: redraws (clear, title, output) until the output changes"
echo a > "$d/w"
(sleep 1; echo b > "$d/w") &
watch -t -g -n 0.1 cat "$d/w" > "$d/w.out"
wait
same "$(tail -1 "$d/w.out" | tr '\033' E)" "E[HE[2Jb" "watch -t -g: the last screen is the changed output, no title"
status 1 "watch without a command: 1" watch
same "$(printf 'x\ny\n' | more)" "x
y" "more not on a terminal: a copy of its input"
same "$(type printf)" "printf is a shell builtin" "printf is a builtin"
same "$(printf '%s=%03d;' a 7 b 12)" "a=007;b=012;" "printf builtin: the format again for the extra arguments"
same "$(printf '%d' x 2>&1; echo " s=$?")" "printf: 'x': expected a numeric value
0 s=1" "printf builtin: a bad number, GNU's message and status 1"

# -- trace (ptrace's PTRACE_SYSCALL stops, docs/ptrace.md) -----------------------------
trace -o "$d/t.out" kill -0 999999 2> /dev/null
same "$?" "1" "trace: its status is the program's"
same "$(grep -c '^kill(999999, 0) = -1 ESRCH (No such process)$' "$d/t.out")" "1" "trace: a failed call, strace's way"
same "$(tail -1 "$d/t.out")" "+++ exited with 1 +++" "trace: the program's end"
same "$(grep -c '^exit(1) = ?$' "$d/t.out")" "1" "trace: exit never returns"
trace -o "$d/t.out" sh -c 'kill -9 $$'
same "$? $(tail -1 "$d/t.out")" "137 +++ killed by SIGKILL +++" "trace: a program killed by a signal"
status 2 "trace without a program: 2" trace

rm -r "$d"
echo "1..$n"
[ $failed -gt 100 ] && failed=100
exit $failed
