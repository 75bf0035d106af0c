/* Differential test: the C library's algorithms on deterministic data. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned lcg = 12345;
static unsigned next(void) { return lcg = lcg * 1103515245u + 12345u; }
static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int main(void)
{
	enum { N = 2000 };
	static int v[N];
	for (int i = 0; i < N; i++)
		v[i] = (int)(next() % 100000) - 50000;
	qsort(v, N, sizeof(v[0]), cmp);
	long sum = 0;
	for (int i = 0; i < N; i++)
		sum += (long)v[i] * (i + 1);
	printf("sorted: min %d max %d weighted %ld\n", v[0], v[N - 1], sum);
	int key = v[N / 3];
	int *hit = bsearch(&key, v, N, sizeof(v[0]), cmp);
	printf("bsearch finds %d\n", hit ? *hit : -1);

	char text[] = "The quick, brown fox; jumps over the lazy dog.";
	int words = 0;
	for (char *t = strtok(text, " ,;."); t; t = strtok(NULL, " ,;."))
		words++;
	printf("tokens %d\n", words);
	char s[] = "Hello, World 123";
	int up = 0, dig = 0;
	for (char *p = s; *p; p++) {
		up += isupper((unsigned char)*p) != 0;
		dig += isdigit((unsigned char)*p) != 0;
		*p = (char)toupper((unsigned char)*p);
	}
	printf("%s upper %d digits %d\n", s, up, dig);
	char m[] = "abcdefghij";
	memmove(m + 2, m, 5);
	printf("memmove %s cmp %d %d\n", m, memcmp("abc", "abd", 3) < 0, strncmp("abc", "abx", 2));
	printf("math %.6f %.6f %.6f %.6f %.6f\n", sqrt(2.0), sin(1.0), exp(1.0), log(10.0), pow(2.0, 0.5));
	char *big = malloc(1 << 20);
	memset(big, 'x', 1 << 20);
	big[(1 << 20) - 1] = 0;
	printf("strlen of a 1 MiB string %zu\n", strlen(big));
	free(big);
	return 0;
}
