/* The user and group databases over /etc/passwd and /etc/group (the
 * files' format: NAME:PASSWD:UID:GID:GECOS:DIR:SHELL and
 * NAME:PASSWD:GID:MEMBER,MEMBER,...), as glibc's "files" source reads
 * them: a malformed line is skipped, the first match wins. The _r forms
 * keep the strings in the caller's buffer (ERANGE when it is too small);
 * the others in a static one, as POSIX allows. */
#include <errno.h>
#include <stdbool.h>
#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PWD_LINE_MAX 4096 /* longer lines are skipped whole */

/* Splits line (its newline removed) at ':' into at most n fields; the
 * number of fields found. */
static int pwd_split(char *line, char **f, int n)
{
	int k = 0;
	f[k++] = line;
	for (char *p = line; *p && k < n; p++) {
		if (*p == ':') {
			*p = 0;
			f[k++] = p + 1;
		}
	}
	return k;
}

/* A decimal id field: 0 on success. */
static int pwd_id(const char *s, unsigned *out)
{
	if (!*s)
		return -1;
	unsigned long v = 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > UINT32_MAX / 10)
			return -1;
		v = v * 10 + (unsigned)(*s - '0');
	}
	if (v > UINT32_MAX)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* Reads the next whole line of f into buf (newline removed): 1, or 0 at
 * end of file. A line longer than the buffer is skipped. */
static int pwd_line(FILE *f, char *buf, size_t cap)
{
	while (fgets(buf, (int)cap, f)) {
		size_t n = strlen(buf);
		if (n && buf[n - 1] == '\n') {
			buf[n - 1] = 0;
			return 1;
		}
		if (feof(f))
			return 1;
		int c;
		while ((c = getc(f)) != EOF && c != '\n')
			;
	}
	return 0;
}

/* A copier of strings into the caller's buffer. */
struct pwd_buf {
	char *p;
	size_t left;
};

static char *pwd_copy(struct pwd_buf *b, const char *s)
{
	size_t n = strlen(s) + 1;
	if (n > b->left)
		return NULL;
	char *d = memcpy(b->p, s, n);
	b->p += n;
	b->left -= n;
	return d;
}

/* Fills pw from a line's fields; ERANGE if buf is too small. */
static int pwd_fill(char **f, struct passwd *pw, char *buf, size_t len)
{
	struct pwd_buf b = { buf, len };
	unsigned uid, gid;
	if (pwd_id(f[2], &uid) || pwd_id(f[3], &gid))
		return EINVAL;
	memset(pw, 0, sizeof(*pw));
	pw->pw_uid = (uid_t)uid;
	pw->pw_gid = (gid_t)gid;
	if (!(pw->pw_name = pwd_copy(&b, f[0])) || !(pw->pw_passwd = pwd_copy(&b, f[1])) ||
	    !(pw->pw_gecos = pwd_copy(&b, f[4])) || !(pw->pw_dir = pwd_copy(&b, f[5])) ||
	    !(pw->pw_shell = pwd_copy(&b, f[6])))
		return ERANGE;
	pw->pw_comment = pw->pw_gecos;
	return 0;
}

/* Fills gr from a line's fields; the member list (NULL-terminated) goes
 * in buf too, pointer-aligned. */
static int grp_fill(char **f, struct group *gr, char *buf, size_t len)
{
	unsigned gid;
	if (pwd_id(f[2], &gid))
		return EINVAL;
	size_t nmem = 1;
	for (const char *p = f[3]; *p; p++)
		nmem += *p == ',';
	uintptr_t at = ((uintptr_t)buf + sizeof(char *) - 1) & ~(uintptr_t)(sizeof(char *) - 1);
	size_t skip = at - (uintptr_t)buf, need = (nmem + 1) * sizeof(char *);
	if (len < skip || len - skip < need)
		return ERANGE;
	char **mem = (char **)at;
	struct pwd_buf b = { buf + skip + need, len - skip - need };
	memset(gr, 0, sizeof(*gr));
	gr->gr_gid = (gid_t)gid;
	if (!(gr->gr_name = pwd_copy(&b, f[0])) || !(gr->gr_passwd = pwd_copy(&b, f[1])))
		return ERANGE;
	size_t k = 0;
	for (char *p = f[3]; *p;) {
		char *end = strchr(p, ',');
		if (end)
			*end = 0;
		if (*p && !(mem[k++] = pwd_copy(&b, p)))
			return ERANGE;
		if (!end)
			break;
		p = end + 1;
	}
	mem[k] = NULL;
	gr->gr_mem = mem;
	return 0;
}

/* What a search matches: a name, or an id. */
struct pwd_key {
	const char *name;
	unsigned id;
};

static int key_match(const struct pwd_key *k, char **f, unsigned idfield)
{
	unsigned id;
	if (k->name)
		return strcmp(f[0], k->name) == 0;
	return pwd_id(f[idfield], &id) == 0 && id == k->id;
}

/* Scans database path (lines of nfld ':'-separated fields, the id in
 * field 2) for key; fill makes the entry from the first matching line it
 * can (a malformed one is skipped). 0 with *found set or not, or an errno
 * value. One scan for /etc/passwd and /etc/group alike. */
static int db_search(const char *path, int nfld, const struct pwd_key *k, int (*fill)(char **, void *, char *, size_t),
		     void *ent, char *buf, size_t len, bool *found)
{
	*found = false;
	FILE *f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : errno;
	char line[PWD_LINE_MAX], *fld[7];
	int err = 0;
	while (pwd_line(f, line, sizeof(line))) {
		if (pwd_split(line, fld, nfld) != nfld || !key_match(k, fld, 2))
			continue;
		err = fill(fld, ent, buf, len);
		if (err == EINVAL) {
			err = 0;
			continue;
		}
		*found = !err;
		break;
	}
	fclose(f);
	return err;
}

static int pw_fill_any(char **fld, void *ent, char *buf, size_t len)
{
	return pwd_fill(fld, ent, buf, len);
}

static int gr_fill_any(char **fld, void *ent, char *buf, size_t len)
{
	return grp_fill(fld, ent, buf, len);
}

/* /etc/passwd for key: 0 with *res set (NULL if not found), or an errno. */
static int pw_search(const struct pwd_key *k, struct passwd *pw, char *buf, size_t len,
		     struct passwd **res)
{
	bool found;
	if (!res)
		return EINVAL;
	*res = NULL;
	if (!pw || !buf)
		return EINVAL;
	int err = db_search("/etc/passwd", 7, k, pw_fill_any, pw, buf, len, &found);
	*res = found ? pw : NULL;
	return err;
}

static int gr_search(const struct pwd_key *k, struct group *gr, char *buf, size_t len,
		     struct group **res)
{
	bool found;
	if (!res)
		return EINVAL;
	*res = NULL;
	if (!gr || !buf)
		return EINVAL;
	int err = db_search("/etc/group", 4, k, gr_fill_any, gr, buf, len, &found);
	*res = found ? gr : NULL;
	return err;
}

int getpwnam_r(const char *name, struct passwd *pw, char *buf, size_t len, struct passwd **res)
{
	struct pwd_key k = { name ? name : "", 0 };
	return pw_search(&k, pw, buf, len, res);
}

int getpwuid_r(uid_t uid, struct passwd *pw, char *buf, size_t len, struct passwd **res)
{
	struct pwd_key k = { NULL, (unsigned)uid };
	return pw_search(&k, pw, buf, len, res);
}

int getgrnam_r(const char *name, struct group *gr, char *buf, size_t len, struct group **res)
{
	struct pwd_key k = { name ? name : "", 0 };
	return gr_search(&k, gr, buf, len, res);
}

int getgrgid_r(gid_t gid, struct group *gr, char *buf, size_t len, struct group **res)
{
	struct pwd_key k = { NULL, (unsigned)gid };
	return gr_search(&k, gr, buf, len, res);
}

/* The non-reentrant forms share one static entry per database, as glibc:
 * the next call overwrites it. */
static struct passwd pw_static;
static char pw_buf[PWD_LINE_MAX];
static struct group gr_static;
static char gr_buf[PWD_LINE_MAX + 512 * sizeof(char *)];

static struct passwd *pw_result(int err, struct passwd *res)
{
	if (err)
		errno = err;
	return res;
}

struct passwd *getpwnam(const char *name)
{
	struct passwd *res = NULL;
	int err = getpwnam_r(name, &pw_static, pw_buf, sizeof(pw_buf), &res);
	return pw_result(err, res);
}

struct passwd *getpwuid(uid_t uid)
{
	struct passwd *res = NULL;
	int err = getpwuid_r(uid, &pw_static, pw_buf, sizeof(pw_buf), &res);
	return pw_result(err, res);
}

static struct group *gr_result(int err, struct group *res)
{
	if (err)
		errno = err;
	return res;
}

struct group *getgrnam(const char *name)
{
	struct group *res = NULL;
	int err = getgrnam_r(name, &gr_static, gr_buf, sizeof(gr_buf), &res);
	return gr_result(err, res);
}

struct group *getgrgid(gid_t gid)
{
	struct group *res = NULL;
	int err = getgrgid_r(gid, &gr_static, gr_buf, sizeof(gr_buf), &res);
	return gr_result(err, res);
}

/* The enumerations: one open file per database, rewound by set*ent. */
static FILE *pw_ent, *gr_ent;

void setpwent(void)
{
	if (pw_ent)
		rewind(pw_ent);
}

void endpwent(void)
{
	if (pw_ent)
		fclose(pw_ent);
	pw_ent = NULL;
}

/* BSD: like setpwent; stayopen is what this file does anyway. */
int setpassent(int stayopen)
{
	(void)stayopen;
	setpwent();
	return 1;
}

struct passwd *getpwent(void)
{
	if (!pw_ent && !(pw_ent = fopen("/etc/passwd", "re")))
		return NULL;
	char line[PWD_LINE_MAX], *fld[7];
	while (pwd_line(pw_ent, line, sizeof(line))) {
		if (pwd_split(line, fld, 7) != 7)
			continue;
		int err = pwd_fill(fld, &pw_static, pw_buf, sizeof(pw_buf));
		if (err == 0)
			return &pw_static;
		if (err != EINVAL) {
			errno = err;
			return NULL;
		}
	}
	return NULL;
}

void setgrent(void)
{
	if (gr_ent)
		rewind(gr_ent);
}

void endgrent(void)
{
	if (gr_ent)
		fclose(gr_ent);
	gr_ent = NULL;
}

struct group *getgrent(void)
{
	if (!gr_ent && !(gr_ent = fopen("/etc/group", "re")))
		return NULL;
	char line[PWD_LINE_MAX], *fld[4];
	while (pwd_line(gr_ent, line, sizeof(line))) {
		if (pwd_split(line, fld, 4) != 4)
			continue;
		int err = grp_fill(fld, &gr_static, gr_buf, sizeof(gr_buf));
		if (err == 0)
			return &gr_static;
		if (err != EINVAL) {
			errno = err;
			return NULL;
		}
	}
	return NULL;
}
