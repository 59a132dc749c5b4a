/* SPDX-License-Identifier: MIT */
/*
 * Floats and doubles: "4f@%eax", "8f@%rdx" at -O2 (built as prog-float) and "4f@-4(%rbp)" at -O0
 * (prog-float-O0). The values are exact in binary, so that a decoded value can be compared as text.
 *
 * Output, per round (see prog.h):
 *	probe float:values arg1=1.5 arg2=-2.25 arg3=3.4028234663852886e+38   (float double double)
 *	probe float:tiny arg1=-0.125 arg2=1e-300                             (float double)
 * Floats are printed with %.9g, doubles with %.17g.
 */
#include <float.h>
#include <sys/sdt.h>

#include "prog.h"

volatile float v_f1 = 1.5f, v_f2 = -0.125f;
volatile double v_d1 = -2.25, v_d2 = FLT_MAX, v_d3 = 1e-300;

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);

	for (i = 0; i < n; i++) {
		float f1 = v_f1, f2 = v_f2;
		double d1 = v_d1, d2 = v_d2, d3 = v_d3;

		printf("probe float:values arg1=%.9g arg2=%.17g arg3=%.17g\n", f1, d1, d2);
		fflush(stdout);
		STAP_PROBE3(float, values, f1, d1, d2);
		printf("probe float:tiny arg1=%.9g arg2=%.17g\n", f2, d3);
		fflush(stdout);
		STAP_PROBE2(float, tiny, f2, d3);
	}
	return 0;
}
