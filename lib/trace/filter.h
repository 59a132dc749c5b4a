/* SPDX-License-Identifier: MIT */
/*
 * The filter's tree (include/sdtrace/filter.h), shared by its parser (filter_parse.c), its
 * evaluation on events (filter_eval.c) and its rendering for the kernel (filter_ftrace.c).
 */
#ifndef SDT_FILTER_H
#define SDT_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sdtrace/filter.h"

enum filter_node_kind { FN_OR, FN_AND, FN_NOT, FN_TEST };
enum filter_op { FOP_TRUE, FOP_EQ, FOP_NE, FOP_LT, FOP_LE, FOP_GT, FOP_GE, FOP_GLOB, FOP_NGLOB };
enum filter_lit { FLIT_NONE, FLIT_INT, FLIT_FLOAT, FLIT_STRING };
/* What a test's name stands for; FNAME_ARG is resolved per event kind. */
enum filter_name { FNAME_ARG, FNAME_PID, FNAME_TID, FNAME_COMM, FNAME_CPU };

struct filter_node {
	enum filter_node_kind kind;
	int lhs, rhs; /* node indices (FN_OR, FN_AND: both; FN_NOT: lhs) */
	/* FN_TEST */
	enum filter_name what;
	size_t name; /* index into ->names (FNAME_ARG) */
	bool has_mask;
	uint64_t mask;
	enum filter_op op;
	enum filter_lit lit;
	int64_t i;  /* FLIT_INT, as written (also ->neg) */
	bool neg;   /* FLIT_INT written with a leading '-' */
	double f;   /* FLIT_FLOAT, and FLIT_INT as a double */
	char *str;  /* FLIT_STRING, unescaped */
	size_t col; /* 1-based column of the name, for messages */
};

/* A kind's argument index per name (-1: none), remembered by filter_eval.c. */
struct filter_kind {
	const struct sdt_trace_kind *kind;
	int *args;
};

struct sdt_filter {
	char *text;
	struct filter_node *nodes;
	size_t nnodes;
	int root;
	char **names; /* distinct argument names, as written */
	size_t nnames;
	struct filter_kind *kinds; /* mutable cache of filter_eval.c */
	size_t nkinds, last_kind;
};

void sdt_filter_kinds_free(struct sdt_filter *f);
/* Does comparison @op hold when the value compared with the literal gives @c (-1, 0, 1; 2: cannot)? */
bool sdt_filter_op_holds(enum filter_op op, int c);

#endif
