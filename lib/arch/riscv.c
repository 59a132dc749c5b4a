/* SPDX-License-Identifier: MIT */
/* Placeholder: replaced by the real riscv operand parser. */
#include <errno.h>

#include "arch.h"

int sdt_riscv_parse_operand(const char *op, struct sdt_arg *a, const char **why)
{
	(void)op;
	(void)a;
	*why = "operand parser not written yet";
	return -EINVAL;
}
