/*
 * Our driver for nissy-core's H48 optimal solver (public C, built from a
 * checkout given to run.sh; nothing of it is kept here). It loads or
 * generates one solver's table once, then solves each scramble of a file
 * (one per line) optimally and prints, per scramble:
 *
 *   index<TAB>moves<TAB>milliseconds<TAB>solution
 *
 * The time is nissy_solve's alone, after the table is in memory.
 *
 * usage: drive_nissy SOLVER TABLE_FILE SCRAMBLES_FILE THREADS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "nissy.h"

static double now_ms(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void quiet(const char *s, void *unused) { (void)s; (void)unused; }

int main(int argc, char **argv) {
	char dataid[NISSY_SIZE_DATAID], cube[NISSY_SIZE_CUBE], line[1024];
	static char sols[1 << 16];
	long long stats[NISSY_SIZE_SOLVE_STATS];
	if (argc != 5) {
		fprintf(stderr, "usage: drive_nissy SOLVER TABLE SCRAMBLES THREADS\n");
		return 2;
	}
	nissy_setlogger(quiet, NULL);
	long long size = nissy_solverinfo(argv[1], dataid);
	if (size <= 0) {
		fprintf(stderr, "drive_nissy: unknown solver %s\n", argv[1]);
		return 2;
	}
	unsigned char *buf = aligned_alloc(64, (size + 63) / 64 * 64);
	if (buf == NULL) {
		fprintf(stderr, "drive_nissy: no memory for %lld bytes\n", size);
		return 1;
	}
	FILE *f = fopen(argv[2], "rb");
	if (f != NULL) {
		if (fread(buf, 1, size, f) != (size_t)size) {
			fprintf(stderr, "drive_nissy: %s is short\n", argv[2]);
			return 1;
		}
		fclose(f);
	} else {
		double t = now_ms();
		if (nissy_gendata(argv[1], size, buf) != size) {
			fprintf(stderr, "drive_nissy: gendata failed\n");
			return 1;
		}
		fprintf(stderr, "drive_nissy: %s table, %lld bytes, made in %.1f s\n",
		    argv[1], size, (now_ms() - t) / 1e3);
		char tmp[4096];
		snprintf(tmp, sizeof tmp, "%s.tmp", argv[2]);
		FILE *w = fopen(tmp, "wb");
		if (w == NULL || fwrite(buf, 1, size, w) != (size_t)size
		    || fclose(w) != 0 || rename(tmp, argv[2]) != 0) {
			fprintf(stderr, "drive_nissy: cannot write %s\n", argv[2]);
			return 1;
		}
	}
	if (nissy_checkdata(argv[1], size, buf) != NISSY_OK) {
		fprintf(stderr, "drive_nissy: %s fails nissy's check\n", argv[2]);
		return 1;
	}
	FILE *in = fopen(argv[3], "r");
	if (in == NULL) {
		fprintf(stderr, "drive_nissy: cannot read %s\n", argv[3]);
		return 2;
	}
	int threads = atoi(argv[4]);
	for (int i = 0; fgets(line, sizeof line, in) != NULL; i++) {
		line[strcspn(line, "\r\n")] = '\0';
		if (nissy_applymoves(NISSY_SOLVED_CUBE, line, cube) != NISSY_OK) {
			fprintf(stderr, "drive_nissy: bad scramble %d\n", i);
			return 2;
		}
		double t = now_ms();
		long long n = nissy_solve(cube, argv[1], NISSY_NISSFLAG_NORMAL,
		    0, 20, 1, 0, threads, size, buf, sizeof sols, sols, stats,
		    NULL, NULL);
		double ms = now_ms() - t;
		if (n < 1) {
			fprintf(stderr, "drive_nissy: scramble %d not solved (%lld)\n", i, n);
			return 1;
		}
		sols[strcspn(sols, "\n")] = '\0';
		int moves = 0;
		for (char *p = strtok(sols, " "); p != NULL; p = strtok(NULL, " "))
			moves++;
		/* strtok cut the solution up: print it again from the start. */
		char *s = sols;
		printf("%d\t%d\t%.1f\t", i, moves, ms);
		for (int k = 0; k < moves; k++) {
			printf(k ? " %s" : "%s", s);
			s += strlen(s) + 1;
		}
		printf("\n");
		fflush(stdout);
	}
	return 0;
}
