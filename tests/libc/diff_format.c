/* Differential test: printf and scanf-family formatting. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	printf("[%d] [%5d] [%-5d] [%05d] [%+d] [% d]\n", 42, 42, 42, 42, 42, 42);
	printf("[%u] [%x] [%X] [%#x] [%o] [%#o]\n", 4000000000u, 255u, 255u, 255u, 8u, 8u);
	printf("[%ld] [%lld] [%llu] [%hhd] [%hd]\n", -1234567890123L, -9223372036854775807LL - 1,
	       18446744073709551615ULL, (signed char)-5, (short)-300);
	printf("[%zu] [%jd] [%" PRId64 "] [%" PRIx32 "]\n", sizeof(int), (intmax_t)-7, (int64_t)1 << 40,
	       (uint32_t)0xdeadbeef);
	printf("[%f] [%.2f] [%10.3f] [%-10.1f] [%e] [%.3E] [%g] [%g] [%g]\n", 3.14159265, 2.5, -1.0 / 3,
	       100.25, 12345.678, 0.000123, 0.0001, 1e20, 123456789.0);
	printf("[%s] [%10s] [%-10s] [%.3s] [%c] [%%]\n", "text", "right", "left", "truncate", 'z');
	char buf[16];
	int n = snprintf(buf, sizeof(buf), "%s-%d-%s", "abcdefgh", 12345, "ijklmnop");
	printf("snprintf %d [%s]\n", n, buf);
	int a = 0, b = 0;
	char word[16];
	double d = 0;
	int got = sscanf("17 0x1f  hello 2.5e3", "%d %i %15s %lf", &a, &b, word, &d);
	printf("sscanf %d: %d %d %s %.1f\n", got, a, b, word, d);
	printf("strtol %ld %ld %lu %.3f %d\n", strtol("-0x7f", NULL, 16), strtol("0777", NULL, 0),
	       strtoul("4294967296", NULL, 10), strtod("1e-3", NULL), atoi("  99xyz"));
	return 0;
}
