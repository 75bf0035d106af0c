/* Differential test: the everyday tools of /bin against GNU coreutils (and
   diffutils, findutils) on the host. Writes the same input files in a new
   directory, runs each command line of the table below with /bin/sh -c
   (stdout and stderr together, stdin from /dev/null unless the line pipes
   into the tool) and prints the line, its output and its exit status: the
   host and Arbor must print the same bytes. LC_ALL=C and TZ=UTC on both
   sides; no output holds a time or a path that can differ. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* The command lines, each run on both sides. */
static const char *const commands[] = {
	/* basename, dirname */
	"basename /usr/lib/libc.a; basename /usr/lib/; basename /; basename //; basename a//b/; basename ''",
	"basename a.c .c; basename .c .c; basename -s .c a.c b.c.c x.h; basename -a /x/y z/w/",
	"basename -z a/b | od -c",
	"basename; echo $?; basename a b c",
	"dirname /usr/lib/libc.a /usr/lib/ / // //a a//b/ a . '' ..",
	"dirname -z a/b c | od -c",
	"dirname",
	/* seq */
	"seq 5; seq 3 6; seq 10 -3 1; seq 1 0.5 3; seq 0.1 3",
	"seq -w 1 3 11; seq -w -5 2 5; seq -w 0.5 1 3",
	"seq -s, 1 5; seq -s '' 3; seq -s ' - ' 2 4; seq -f '%03g' 3 5; seq -f 'n=%.2f' 1 0.25 2",
	"seq 3 1; echo $?; seq 1 0 3; seq x; seq; seq 1 2 3 4",
	"seq -s, 0.1 0.1 2.5; seq -s, 1 2.55; seq -s, 3 -0.25 1.9; seq -s, -w -2.55 1 1; seq -s, 0.05 0.3 1.999",
	/* tee */
	"seq 3 | tee out1 out2; cat out1 out2",
	"echo one > app; seq 2 | tee -a app >/dev/null; cat app",
	"echo x | tee /nonexist/dir/f; echo $?",
	"echo y | tee -i out3 && cat out3",
	/* printf, the tool (env) and the shell's builtin */
	"env printf '[%d] [%5d] [%-5d|] [%05d] [%+d] [% d] [%.3d]\\n' 42 42 42 42 42 42 5",
	"env printf '%x %X %#x %o %#o %u %u\\n' 255 255 255 8 8 7 -3",
	"env printf '%i %x %o %d %d\\n' 0x10 -1 010 \"'A\" ''",
	"env printf '%f|%.2f|%10.3f|%-10.1f|%e|%.3E|%g|%g|%G\\n' 3.14159265 2.5 -0.333333 100.25 12345.678 "
	"0.000123 0.0001 1e20 0.00001",
	"env printf '[%s] [%10s] [%-10s] [%.3s] [%5.2s] [%c] [%%]\\n' text right left truncate abc zed",
	"env printf '%*d|%-*d|%.*f\\n' 5 1 4 2 2 3.14159",
	"env printf '%s=%d\\n' a 1 b 2 c",
	"env printf 'a\\tb\\\\c\\101\\x42\\0103\\n\\a\\b\\f\\v\\r\\e\\\"' | od -c",
	"env printf '%b|\\n' 'a\\101\\0102\\x43\\tz' 'x\\cy' 'not reached'",
	"env printf 'x\\cy'; echo; env printf '%s' ; echo \"rc $?\"",
	"env printf '%d\\n' abc 3x; echo $?; env printf '%d\\n' 99999999999999999999 2>/dev/null; echo $?",
	"env printf; echo $?; env printf '%5.1f%%\\n' 99.44",
	"env printf '%d\\c' x; echo \" rc=$?\"; env printf '%d|' 'a\\b' 2; echo \" rc=$?\"; env printf 'x\\n' extra; echo $?",
	"env printf '[%.*s]\\n' -2 abc 1 xyz; env printf '[%*s]\\n' -4 ab",
	"type printf; printf '%s-%d-%x|%5s|%-3c|\\n' a 10 255 b c; printf '%s\\n' x y z",
	"printf '%05.1f %e %g\\n' 3.14159 1234.5 0.5; printf 'a\\tb\\101\\n'; printf '%b' 'q\\tw\\n'",
	"printf '%d %i %o %u\\n' 17 0x11 8 42; printf '[%*s]\\n' 6 ab; x=$(printf '%03d' 7); echo $x",
	/* od */
	"od bytes; od -A x -t x1 bytes; od -A d -t d4 bytes",
	"od -c bytes; od -t x1 -t c words; od -A n -t o2 words; od -t x2 -t c fields",
	"od -t d1 bytes; od -t u4 bytes; od -t x8 bytes; od -t d2 bytes; od -t dC -t uS words",
	"od -b words; od -d words; od -s words; od -x -c words; od -t o4 -t x1 words; od -t x empty",
	"od -j 3 -N 5 -c words; od -N 20 -t x1 bytes; od -v -N 48 -t x1 -j 300 /dev/zero",
	"printf 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' | od -c; printf abc | od -t x2 -t c",
	"od nofile; echo $?; od -t x1 nofile words 2>err | head -2; cat err; od -t q words; od -A z words",
	/* tr */
	"tr a-z A-Z < words; tr '[:lower:]' '[:upper:]' < fields | head -2; tr -d 'aeiou\\n' < words",
	"tr -s 'a-z' < words | head -3; echo 'aaabbbccc   ddd' | tr -s ' ab'; echo 'a  b' | tr -s ' ' '_'",
	"tr -c 'a-z\\n' '#' < fields; tr -cd '0-9\\n' < fields; tr -ds 'a' 'n' < words | head -4",
	"tr 'abc' 'x' < words | head -4; tr -t 'abc' 'xy' < words | head -4; tr 'a-e' '[Z*]' < words | head -3",
	"echo 'tab\there' | tr '\\t' ' '; echo hello | tr 'a-y' 'b-z'; echo 0123 | tr '0-9' '[:alpha:]'",
	"echo 'a:b:c' | tr ':' '\\n'; echo abc | tr '[=b=]' 'X'; echo hello | tr '[l*2]' 'L'; echo abc | tr '\\141' Q",
	"tr; echo $?; tr a; echo $?; tr a b c; echo $?; tr -d a b; echo $?; echo x | tr z-a q; echo $?",
	/* cut */
	"cut -d: -f1 fields; cut -d: -f1,3 fields; cut -d: -f3- fields; cut -d: -f-2 fields",
	"cut -d: -s -f 2 fields; cut -d: -f 5,1 fields; cut -d: -f 2-3,1 fields; cut -f 1 table",
	"cut -c1-3 words; cut -b 2,4-5 fields; cut -c 3- words | head -3; printf 'abc' | cut -b 1",
	"printf 'a\\tb\\tc\\n' | cut -f2; printf 'x y z\\n' | cut -d ' ' -f 2; cut -d: -f1 - < fields",
	"cut -f1 nofile; echo $?; cut a; echo $?; cut -f1 -c1 a; echo $?; cut -d ab -f1 a; echo $?",
	"cut -f 0 a; cut -f - a; cut -f 3-1 a; cut -f x a; cut -b 1,y a; cut -f 1-2-3 a; cut -b 1-2-3 a; "
	"cut -f '' a; cut -d : -b 1 a; cut -s -c 1 a",
	/* uniq */
	"uniq words; sort words | uniq; sort words | uniq -c; sort words | uniq -d; sort words | uniq -u",
	"sort words | uniq -ci; sort -f words | uniq -i; uniq -f 1 table; uniq -s 2 table; uniq -w 2 words",
	"sort words | uniq -cd; sort words | uniq - out4; cat out4; uniq -c empty",
	"uniq nofile; echo $?; uniq a b c; echo $?; uniq -f x words; echo $?",
	/* sort */
	"sort words; sort -r words; sort -f words; sort -u words; sort -fu words",
	"sort -n nums; sort -rn nums; sort -g nums; sort -nu nums; sort nums",
	"sort -k2 table; sort -k2,2 table; sort -k1,1n table; sort -k1,1nr -k3 table; sort -k 2,2 -k 1,1n table",
	"sort -t: -k3,3n fields; sort -t: -k 5 fields; sort -t : -k 1.2,1.3 fields; sort -k3.2 table",
	"sort -u -k2,2 table; sort -s -k2,2 table; sort -k2,2 -s -r table; sort -b -k2 table",
	"sort -o sorted words && cat sorted; sort -o words2 words words && wc -l words2; sort empty",
	"sort words table | head -5; seq 10 | sort; seq 10 | sort -n | tail -1; printf 'b\\na' | sort",
	"sort -c words; echo $?; sort words | sort -c; echo $?; sort -cu words; echo $?",
	"sort nofile; echo $?; sort -k x words; echo $?; sort -k 0 words; echo $?; sort -t ab words; echo $?",
	/* date (fixed times only) */
	"date -d @1700000000; date -u -d @0; date -d @0 -R; date -d @1700000000 -I; date -d @1 -Iseconds",
	"date -d '2024-02-29 13:45' ; date -d 2024-02-29 +%s; date -d '2000-01-01 00:00:59' -u +%T; date -d @5.25 +%N",
	"date -d @100000 '+%-d|%_H|%-H|%05d|%^a|%k|%l|%P|%C|%D|%F|%T|%R|%G|%V|%U|%W|%h|%n|%t|%c|%x|%X|%r'",
	"date -d @1234567890 '+%a %A %b %B %d %e %H %I %j %m %M %p %S %u %w %y %Y %z %:z %Z %% %s %q'",
	"date -d @1626764237 '+%-3e|%10A|%-10A|%010B|%_5H|%3N|%-N|%_z|%-z|%12R|%^B|%_j|%-j'",
	"date -d @951782400 +%j/%U/%V/%G; date -d @1609459199 '+%G-W%V-%u %g'; date -d @-86400 +%F",
	"date -d xyz; echo $?; date -d 2023-02-29; echo $?; date now; echo $?; date -r nofile; echo $?",
	"touch -d '2021-03-04 05:06:07' stamp 2>/dev/null || touch stamp; date -r words +%Y | wc -c; date +%Y | wc -c",
	/* cmp */
	"cmp a.txt b.txt; echo $?; cmp -b a.txt b.txt; cmp -l a.txt b.txt 2>err; echo $?; cat err",
	"cmp -lb a.txt b.txt 2>err; cat err",
	"cmp a.txt a.txt; echo $?; cmp -s a.txt b.txt; echo $?; cmp -s a.txt a.txt; echo $?",
	"head -3 a.txt > a3; cmp a.txt a3; cmp a3 a.txt; cmp -l a3 a.txt 2>err; cat err; cmp empty a.txt; echo $?",
	"printf 'one\\ntw' > tw; cmp tw a.txt; cmp -n 5 a.txt b.txt; echo $?; cmp -i 4 a.txt b.txt",
	"cmp - a.txt < b.txt; cmp a.txt < b.txt; cmp -l bytes words 2>/dev/null | head -5; cmp -lb bytes words 2>err | tail -3; cat err",
	"printf b > s1; printf xb > s2; cmp -i 2 s1 s2; echo $?; cmp -i 1 s1 s2; echo $?",
	"cmp nofile a.txt; echo $?; cmp a.txt; echo $?; cmp; echo $?; cmp -l -s a b; echo $?",
	/* diff */
	"diff a.txt b.txt; echo $?; diff b.txt a.txt; diff a.txt a.txt; echo $?",
	"diff -u -L a -L b a.txt b.txt; diff -U 1 -L old -L new a.txt b.txt; diff -U0 -L a -L b b.txt a.txt",
	"diff -u a.txt b.txt | head -2 | cut -c1-10; diff -u a.txt b.txt | tail -n +3",
	"diff -q a.txt b.txt; echo $?; diff -s a.txt a.txt; diff -qs a.txt a.txt; echo $?",
	"diff words table; diff empty a3; diff a3 empty; diff -u -L e -L a empty a3; diff -u -L a -L e a3 empty",
	"printf 'one\\ntwo' > nonl; diff a3 nonl; diff nonl a3; diff -u -L x -L y nonl a3; diff nonl nonl; echo $?",
	"sort words > sw; diff words sw; diff -u -L w -L s words sw; uniq sw | diff - sw",
	"diff bytes words; echo $?; diff nofile a.txt; echo $?; diff a.txt; echo $?",
	/* find (its order is the directories', so sorted) */
	"find tree | sort; find tree/ -maxdepth 1 | sort; find tree -mindepth 2 | sort",
	"find tree -name '*.c' | sort; find tree -iname '*.c' | sort; find tree -path '*sub*' -type f | sort",
	"find tree -type d | sort; find tree -type f | sort; find tree -type l; find tree -empty | sort",
	"find tree -type f -size 0 | sort; find tree -type f -size +1 | sort; find tree -type f -size -2c | sort",
	"find tree -size 2000c; find tree -type f -size 2k; find tree -type f -size -1k | sort",
	"find tree -name '*.c' -o -name '*.txt' | sort; find tree -type f -size +3 -o -type f -size 1 | sort",
	"find tree ! -name '*.c' -type f | sort; find tree \\( -name sub -prune \\) -o -print | sort",
	"find tree -name 'a*' -print0 | od -c; find tree/sub -name '[b-c].?' -print0 | od -c; find tree -type f -name 'b*' -exec cat {} \\;",
	"find tree -name '*.c' -exec echo found {} ';' | sort; find tree -name '*.c' -exec echo {} + | wc -w",
	"find tree/sub -depth -type d; find tree -maxdepth 0; find . -maxdepth 1 -name tree",
	"find tree -newer tree/old | sort; find tree -not -newer tree/old",
	"find nofile; echo $?; find tree -foo; echo $?; find tree -name; echo $?; find tree -type q; echo $?",
	"find tree -size 3x; echo $?; find tree -maxdepth x; echo $?; find tree \\( -name a; echo $?",
	/* xargs */
	"seq 5 | xargs; seq 5 | xargs echo n; seq 7 | xargs -n 3; seq 7 | xargs -n 3 echo x",
	"printf 'a b \\nc\\n d e f\\n' | xargs -L 1; printf 'a b\\nc\\n' | xargs -L 2 echo",
	"printf '\"a b\" c\\n' | xargs -n 1; printf \"'x y' z\\\\ w\\n\" | xargs -n 1",
	"xargs -I {} echo '[{}]' < xin; xargs -n 2 < xin; seq 3 | xargs -I X echo X-X",
	"printf 'a\\0b c\\0' | xargs -0 -n 1 echo; printf 'a:b:c' | xargs -d : -n 1; printf 'p\\nq' | xargs -d '\\n'",
	"echo | xargs echo empty; echo | xargs -r echo never; echo rc $?; xargs < words",
	"printf 'a  b\\n' | xargs -t -n 1 echo \"x y\" 2>&1; seq 3 | xargs -t echo 2>&1; seq 3 | xargs false; echo $?; seq 3 | xargs sh -c 'exit 255'; echo $?",
	"echo x | xargs nonexistent-cmd; echo $?; echo \"'a\" | xargs; echo $?; seq 2 | xargs -n 0; echo $?",
	"find tree -name '*.c' | sort | xargs wc -l; find tree -name '*.c' -print0 | sort -z | xargs -0 cat",
	/* which (PATH=/bin:/usr/bin on both sides) */
	"which sh ls; echo $?; which nonexistent; echo $?; which sh nonexistent ls; echo $?; which; echo $?",
	"which /bin/sh ./words; echo $?; PATH=/bin which -a sort; cp /bin/sh ./mysh; PATH=:/bin which mysh",
	/* more: as cat when not on a terminal */
	"more words | head -3; more a3 tw; echo; more nofile; echo $?; seq 3 | more; more tree | head -3",
	/* touch, ln, du, stat, df: the options people use, what does not depend on the file system */
	"touch -d '2021-03-04 05:06:07' t1; date -r t1; touch -d @86400 t2; stat -c '%Y %X' t2",
	"touch -t 202001020304.05 t3; date -r t3; touch -t 9912312359 t4; date -r t4 +%F",
	"touch -r t1 t5; date -r t5; touch -m -d @100 t1; stat -c '%X %Y' t1; touch -a -d @200 t1; stat -c '%X %Y' t1",
	"touch -c nothere; ls nothere; touch -d bad t6; echo $?; touch -t 1 t6; echo $?; touch; echo $?",
	"touch /nonexist/dir/f; echo $?; touch -r nofile t7; echo $?; touch -h -d @5 tree/ln; stat -c %Y tree/ln; stat -L -c %Y tree/ln | wc -c",
	"ln -sv a.c tree/l1; ln -v tree/a.c tree/h1; ln tree/a.c tree/h1; ln -s t tree/l1; ln nofile x",
	"ln -s a.c tree/l2 && cat tree/l2; ln -sf b.txt tree/l2 && cat tree/l2; ln tree/b.txt tree/sub && ls tree/sub",
	"ln -s sub tree/ls; ln -sfn a.c tree/ls; stat -c %N tree/ls; ln; echo $?; ln -T a b c; echo $?",
	"du -b tree/big tree/a.c; du -a tree/sub | cut -f2 | sort; du -cb tree/big tree/zero; du -sb tree/big",
	"du -b -d 0 tree/big; du -hb tree/big; du -d 1 tree | cut -f2 | sort; du -sc tree tree | cut -f2; du nofile; echo $?; du -d x tree; echo $?",
	"stat -c '%n %s %F %a %A %h' tree/a.c tree/zero tree/big; stat -c '%N %F' tree/ln; stat -L -c '%F %s' tree/ln",
	"stat -c '%n|%%|%s' tree/b.txt; stat -c '%F %A' tree/sub; stat nofile; echo $?; stat; echo $?",
	/* test and [: the shell's builtins (dash's on the host) */
	"test -f words; echo $?; [ -d tree ]; echo $?; [ -L tree/ln ]; echo $?; [ -h words ]; echo $?; [ ! -e nofile ]; echo $?",
	"[ -s tree/zero ]; echo $?; [ -s words ]; echo $?; [ tree/a.c -ef tree/h1 ]; echo $?; [ -x tree ]; echo $?",
	"test 3 -lt 10 -a abc != abd; echo $?; [ 10 -le 9 -o x = x ]; echo $?; [ \\( 1 -eq 1 \\) -a ! -z x ]; echo $?",
	"[ -n '' ]; echo $?; [ -z '' ]; echo $?; test; echo $?; [ ]; echo $?; [ abc ]; echo $?; [ -1 -gt -2 ]; echo $?",
	"[ a \\< b ]; echo $?; [ b \\> a ]; echo $?; [ 007 -eq 7 ]; echo $?; [ -e tree -a -d tree/sub ]; echo $?",
	"env test -f words; echo $?; env [ 1 -lt 2 ]; echo $?; env [ 1 -lt 2; echo $?; env test 1 -eq a; echo $?",
	"find tree -type f -exec test -s {} ';' -print | sort; echo tree/zero words | xargs -n 1 test -s; echo $?",
	"df nofile; echo $?; ls nofile; echo $?; ls -l nofile tree/b.txt | cut -c1-10; echo $?",
	/* nproc and getconf: what is the same whatever the CPU count (the
	   counts themselves: tests/proc/diff_cpustat.c) */
	"nproc --ignore=1000; OMP_NUM_THREADS=5 nproc; OMP_NUM_THREADS=' 3 ,2' OMP_THREAD_LIMIT=2 nproc --ignore 1",
	"nproc --ignore=x; echo $?; nproc a; echo $?; nproc -a; echo $?; nproc --bad; echo $?; nproc --ignore; echo $?",
	"nproc --al --ign=1000; nproc --all=2; echo $?; nproc --ignore=2 -- x; echo $?",
	"getconf PAGESIZE; getconf PAGE_SIZE; getconf CLK_TCK; getconf LONG_BIT; getconf _POSIX_VERSION; getconf PATH",
	"getconf _POSIX_TRACE; getconf POSIX2_SYMLINKS /; getconf -v POSIX_V7_LP64_OFF64 CHAR_BIT",
	"getconf NO_SUCH; echo $?; getconf NAME_MAX; echo $?; getconf PATH x; echo $?; getconf; echo $?",
};

/* Deterministic input files. */
static void write_file(const char *name, const char *text)
{
	FILE *f = fopen(name, "w");
	if (!f) {
		perror(name);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

static void make_inputs(void)
{
	write_file("words", "pear\nApple\nbanana\napple\nCherry\nbanana\nbanana\ndate\n\npear\nfig\n");
	write_file("nums", "10\n-3\n2.5\n100\n7\n007\n-10.5\n0\n42\n1e3\n");
	write_file("fields", "root:x:0:0:root:/root:/bin/sh\nbin:x:1:1:bin:/bin:/sbin/nologin\n"
			     "alice:x:1000:100:Alice Liddell:/home/alice:/bin/sh\nshort\n:x::\n");
	write_file("table", "3 b zeta\n1 c alpha\n2 a gamma\n10 b beta\n2 a delta\n1 c alpha\n");
	write_file("a.txt", "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n");
	write_file("b.txt", "one\n2\nthree\nfour\nfive\nsix and a half\nseven\neight\nnine\nten\neleven\n");
	write_file("empty", "");
	write_file("xin", "one\ntwo words\n\n  three\n\\x y\n\"q r\" z\n'a b'c\n");
	mkdir("tree", 0755);
	mkdir("tree/sub", 0755);
	mkdir("tree/sub/deep", 0755);
	mkdir("tree/empty.d", 0755);
	write_file("tree/a.c", "int main(void) { return 0; }\n");
	write_file("tree/b.txt", "bee\n");
	write_file("tree/sub/c.c", "/* c */\n");
	write_file("tree/sub/deep/d.C", "D\n");
	write_file("tree/zero", "");
	symlink("a.c", "tree/ln");
	FILE *big = fopen("tree/big", "w");
	for (int i = 0; i < 2000; i++)
		fputc('a' + i % 26, big);
	fclose(big);
	write_file("tree/old", "old\n");
	struct timespec old[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
	utimensat(AT_FDCWD, "tree/old", old, 0);
	FILE *f = fopen("bytes", "w");
	for (int i = 0; i < 256; i++)
		fputc(i, f);
	fputs("tail", f);
	fclose(f);
}

/* Runs cmd with sh -c; prints it, its output and its status. */
static void run(const char *cmd)
{
	int p[2];
	if (pipe(p) < 0) {
		perror("pipe");
		exit(1);
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		dup2(null, 0);
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	printf("$ %s\n", cmd);
	char buf[4096];
	ssize_t n;
	while ((n = read(p[0], buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	close(p[0]);
	int st;
	waitpid(pid, &st, 0);
	printf("[%s %d]\n", WIFEXITED(st) ? "exit" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

int main(void)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/tmp/difftools.%d", (int)getpid());
	if (mkdir(dir, 0700) < 0 || chdir(dir) < 0) {
		perror(dir);
		return 1;
	}
	umask(022);
	setenv("LC_ALL", "C", 1);
	setenv("TZ", "UTC", 1);
	setenv("PATH", "/bin:/usr/bin", 1);
	unsetenv("POSIXLY_CORRECT");
	make_inputs();
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		run(commands[i]);
	/* Clean up, quietly, on both sides. */
	char rm[96];
	snprintf(rm, sizeof(rm), "rm -rf %s", dir);
	if (chdir("/") == 0 && system(rm) != 0)
		return 1;
	return 0;
}
