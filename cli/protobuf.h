/* SPDX-License-Identifier: MIT */
/*
 * Protocol Buffers, the wire format, for writing (https://protobuf.dev/programming-guides/
 * encoding/): a message is a run of fields, each a tag (field number << 3 | wire type, as a
 * varint) and a value: VARINT (0) a base-128 little-endian integer, I64 (1) eight bytes little
 * endian, LEN (2) a varint length then that many bytes (strings, bytes, nested messages).
 * Negative int32/int64 values are varints of their 64-bit two's complement (ten bytes).
 *
 * A message is built bottom-up in a struct pb: a nested one in its own pb, appended whole to its
 * parent by pb_message(), so that each length is known when it is written. A pb's memory grows
 * and is kept between messages (pb_reset()); a failed allocation is remembered (->err) and
 * reported once by whoever writes the buffer.
 */
#ifndef SDTRACE_PROTOBUF_H
#define SDTRACE_PROTOBUF_H

#include <stddef.h>
#include <stdint.h>

struct pb {
	unsigned char *buf;
	size_t len, cap;
	int err; /* -ENOMEM once an append failed: the content is then incomplete */
};

void pb_reset(struct pb *p); /* empty, memory kept */
void pb_free(struct pb *p);

void pb_uint(struct pb *p, unsigned int field, uint64_t v);  /* uint32/uint64/enum/bool */
void pb_int(struct pb *p, unsigned int field, int64_t v);    /* int32/int64 */
void pb_double(struct pb *p, unsigned int field, double v);  /* double */
void pb_bytes(struct pb *p, unsigned int field, const void *s, size_t n); /* bytes */
/*
 * A `string` field: protobuf requires valid UTF-8 there (protoc and Perfetto's parser refuse
 * the rest), so each byte of @s that is not part of a valid UTF-8 sequence is written as U+FFFD,
 * as --json, chrome and CSV do.
 */
void pb_string_n(struct pb *p, unsigned int field, const char *s, size_t n);
void pb_string(struct pb *p, unsigned int field, const char *s);
void pb_message(struct pb *p, unsigned int field, const struct pb *m); /* nested message */

#endif
