/* SPDX-License-Identifier: MIT */
/*
 * The kernel's uprobe_multi link (Linux 6.6), which libbpf 1.1 and Debian 12's UAPI headers
 * (linux-libc-dev 6.1) do not know yet: the few declarations we use, with the kernel's values.
 *
 *  - BPF_TRACE_UPROBE_MULTI: enum bpf_attach_type's 48th entry (include/uapi/linux/bpf.h, after
 *    BPF_TCX_EGRESS = 47); the program is loaded with it as expected_attach_type, and the link
 *    is created with it as attach_type.
 *  - struct sdt_link_create_uprobe_multi: union bpf_attr's link_create with its uprobe_multi
 *    member: prog_fd, target_fd, attach_type, flags, then (at byte 16, where every link type's
 *    own part starts) path, offsets, ref_ctr_offsets, cookies (user pointers as u64), cnt,
 *    flags (BPF_F_UPROBE_MULTI_RETURN: not used), pid (0: every process).
 * The kernel accepts a shorter attr than its own (the rest is zero), so this prefix is enough.
 * With libbpf >= 1.3, bpf_link_create()'s opts.uprobe_multi does the same.
 */
#ifndef SDT_BPF_UPROBE_MULTI_H
#define SDT_BPF_UPROBE_MULTI_H

#include <stdint.h>

#define SDT_BPF_TRACE_UPROBE_MULTI 48

struct sdt_link_create_uprobe_multi {
	uint32_t prog_fd;
	uint32_t target_fd; /* 0 */
	uint32_t attach_type;
	uint32_t flags; /* 0 */
	uint64_t path;
	uint64_t offsets;
	uint64_t ref_ctr_offsets;
	uint64_t cookies;
	uint32_t cnt;
	uint32_t um_flags;
	uint32_t pid;
	uint32_t pad;
};

#endif
