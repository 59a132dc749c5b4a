/* SPDX-License-Identifier: MIT */
/*
 * 16-byte floating-point values (C long double) from their bytes, as the probed program's
 * architecture lays them out, into the reading host's long double.
 *
 *	format             architectures                      bytes
 *	SDT_FLOAT_X87      x86_64, i386 (long double)         80-bit x87 extended in the low 10
 *	                                                      bytes (little-endian): 64-bit
 *	                                                      significand with its integer bit,
 *	                                                      15-bit exponent, sign; the rest pad
 *	SDT_FLOAT_IEEE     aarch64, s390x, riscv64            IEEE 754 binary128: sign, 15-bit
 *	                                                      exponent, 112-bit fraction, in the
 *	                                                      file's byte order
 *	SDT_FLOAT_IBM128   ppc64, ppc64le, ppc (gcc default)  IBM double-double: two doubles, the
 *	                                                      high one first, value = hi + lo
 *
 * Exact where the host's long double holds the value (x87 on an x86 host; all three on a host
 * whose long double is binary128). Else rounded once to the nearest host long double: a
 * binary128 or double-double value on an x86 host keeps 64 significant bits, and a binary128
 * value beyond the x87 range (the largest rounds up) becomes infinity, one below it 0.
 * An x87 pattern the FPU rejects (an unnormal, a pseudo-infinity or pseudo-NaN) is a NaN.
 * Pure computation (tests/unit/test-decode-float.c).
 */
#ifndef SDT_DECODE_FLOAT_H
#define SDT_DECODE_FLOAT_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/trace_event.h"

/* The value of the 16 bytes at @p in @format; @little: their byte order is little-endian. */
long double sdt_decode_float16(const uint8_t *p, enum sdt_float_format format, bool little);

/* The float format of a 16-byte float of a file of ELF machine @machine (EM_*). */
enum sdt_float_format sdt_float_format_of(unsigned int machine);

/* "x87", "binary128", "double-double": for messages and `report --header`. */
const char *sdt_float_format_name(enum sdt_float_format format);

#endif
