/* SPDX-License-Identifier: MIT */
/* Placeholder: replaced by the real s390 operand parser. */
#include <errno.h>

#include "arch.h"

int sdt_s390_parse_operand(const char *op, struct sdt_arg *a, const char **why)
{
	(void)op;
	(void)a;
	*why = "operand parser not written yet";
	return -EINVAL;
}
