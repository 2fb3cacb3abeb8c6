// honest: c_openmp_16cpu
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256 --env OMP_NUM_THREADS=16
// xfail: by design under the default --nproc 10 (a judge gives such a program --nproc 17 or more; libgomp starts one thread per CPU; on a 16-CPU host (simulated with OMP_NUM_THREADS=16) the 11th clone fails with EAGAIN under the default --nproc 10: "libgomp: Thread creation failed", exit 1; 10 threads pass)
// cflags: -fopenmp
// evidence: the OpenMP submission of c_openmp as it runs on a 16-CPU grading host (libgomp default: one thread per CPU) does a parallel reduction and a parallel-for fill; prints openmp-ok with the known sum
// ok-if: out_has "openmp-ok 333333833333500000"
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	long n = 1000000;
	unsigned long long s = 0;
	int nt = 0;
#pragma omp parallel for reduction(+ : s)
	for (long i = 0; i <= n; i++)
		s += (unsigned long long)i * i;
	double *a = malloc(n * sizeof *a);
	if (!a)
		return 1;
#pragma omp parallel
	{
#pragma omp single
		nt = omp_get_num_threads();
#pragma omp for
		for (long i = 0; i < n; i++)
			a[i] = i * 0.5;
	}
	double t = 0;
	for (long i = 0; i < n; i++)
		t += a[i];
	printf("openmp-ok %llu threads %d check %.1f\n", s, nt, t);
	return 0;
}
