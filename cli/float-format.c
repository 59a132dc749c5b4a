/* SPDX-License-Identifier: MIT */
/* Decoded floats as the shortest decimal that reads back the same (see float-format.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "float-format.h"

char *float_format(char *buf, size_t size, const struct sdt_trace_value *v)
{
	int prec;

	if (v->size == 16 ? isnan(v->ld) : isnan(v->f)) {
		snprintf(buf, size, "nan");
		return buf;
	}
	if (v->size == 16 ? isinf(v->ld) : isinf(v->f)) {
		snprintf(buf, size, (v->size == 16 ? v->ld < 0 : v->f < 0) ? "-inf" : "inf");
		return buf;
	}
	if (v->size == 16) {
		for (prec = 1; prec <= LDBL_DECIMAL_DIG; prec++) {
			snprintf(buf, size, "%.*Lg", prec, v->ld);
			if (strtold(buf, NULL) == v->ld)
				break;
		}
		return buf;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v->f);
		if (v->size == 4 ? (float)strtod(buf, NULL) == (float)v->f
				 : strtod(buf, NULL) == v->f)
			break;
	}
	return buf;
}
