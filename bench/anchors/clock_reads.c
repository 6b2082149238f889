/* bench/fidelity's measure of what `botan speed` adds to every message: Botan_CLI::Timer
 * start() and stop() each read OS::get_system_timestamp_ns (clock_gettime(CLOCK_REALTIME) in
 * libbotan-2.so.19) and OS::get_cpu_cycle_counter (rdtsc): four reads per message. Prints the
 * median ns of those four reads over batches of ~10 ms.
 *
 *   cc -O2 -o clock_reads clock_reads.c && ./clock_reads SECONDS */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

static volatile uint64_t sink;

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t batch(long n)
{
	int64_t t0 = mono_ns();
	uint64_t acc = 0;

	for (long i = 0; i < n; i++) {
		struct timespec a, b;

		clock_gettime(CLOCK_REALTIME, &a);
		acc += __rdtsc();
		clock_gettime(CLOCK_REALTIME, &b);
		acc += __rdtsc() + (uint64_t)(b.tv_nsec - a.tv_nsec);
	}
	sink = acc;
	return mono_ns() - t0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 1.0;
	static double per[1 << 16];
	long n = 1;
	int count = 0;
	int64_t stop;

	while (batch(n) < 10000000)
		n *= 2;
	stop = mono_ns() + (int64_t)(seconds * 1e9);
	do
		per[count++] = (double)batch(n) / n;
	while (mono_ns() < stop && count < (1 << 16));
	qsort(per, count, sizeof per[0], cmp);
	printf("{\"median_ns\": %.3f, \"batches\": %d, \"iterations\": %ld}\n",
	       count % 2 ? per[count / 2] : (per[count / 2 - 1] + per[count / 2]) / 2, count, n);
	return 0;
}
