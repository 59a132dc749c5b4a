/* SPDX-License-Identifier: MIT */
/*
 * User probes (`sdtrace probe add`): what must hold for a name, an argument and a location before
 * any of it reaches a `p:` line of uprobe_events or a `probes` file. See include/sdtrace/probe.h.
 */
#ifndef SDT_USERPROBE_H
#define SDT_USERPROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest argument (NAME=FETCH:TYPE) we accept, and the most arguments per probe (the kernel's
 * MAX_TRACE_ARGS is 128). */
#define SDT_UPROBE_ARG_MAX  256
#define SDT_UPROBE_MAX_ARGS 32
/* Deepest +N(...) nesting (the kernel allows more; no real use needs it). */
#define SDT_UPROBE_MAX_DEPTH 4

/*
 * Is @arg a fetcharg the kernel's uprobe parser takes, in the strict form we store:
 * NAME=FETCH[:TYPE], NAME [A-Za-z_][A-Za-z0-9_]*, FETCH one of %REG (a pt_regs name of @machine),
 * +N(FETCH) / -N(FETCH), $stackN, $stack, $comm, $retval (only when @is_return), \IMM, @+N;
 * TYPE u8..u64, s8..s64, x8..x64, string, ustring, a bitfield bW@O/S, or a type with [N].
 * Returns true, or false with *why pointing at a static reason.
 */
bool sdt_uprobe_arg_valid(const char *arg, unsigned int machine, int elfclass, bool is_return,
			  const char **why);

/* Does @reg (without '%') name a pt_regs register of @machine/@elfclass? */
bool sdt_uprobe_reg_valid(const char *reg, size_t len, unsigned int machine, int elfclass);

/* "probe_" + the file's base name up to its first byte not in [A-Za-z0-9_], as perf names it
 * ("prog-x" -> "probe_prog", "libc.so.6" -> "probe_libc"). */
char *sdt_uprobe_group(const char *path);

/*
 * Decode the @len bytes of a function's code (from its first byte) up to @off. Returns 0 when
 * @off starts an instruction, -ERANGE when it falls inside one (*insn_start: where that one
 * starts), -EILSEQ when the bytes before it do not decode, -ENOTSUP without a decoder for
 * @machine (built without capstone, or not x86), -ENOMEM. (userprobe_insn.c)
 */
int sdt_insn_boundary(unsigned int machine, int elfclass, const unsigned char *code, size_t len,
		      uint64_t off, uint64_t *insn_start);

struct sdt_cache;
struct sdt_user_probe;
struct sdt_probes;
struct sdt_probes_entry;

/*
 * What is wrong with the '#' entry @e of a probes file (a header "GROUP:NAME=..." with names
 * tracefs takes, followed by p:/r: lines of that GROUP/NAME), or NULL. For `cache check`.
 */
const char *sdt_userprobe_entry_problem(const struct sdt_probes_entry *e);
/* Rewrite the probes file in @dfd without the entries flagged in @drop. 0 or -errno. */
int sdt_probes_write_without(int dfd, const struct sdt_probes *p, const bool *drop);

/*
 * Append to *out (*n entries, *cap allocated) the user probes of the cache entry (@bid, @path)
 * whose names match the glob @pattern (NULL: all). 0 or -errno.
 */
int sdt_userprobe_entry(struct sdt_cache *c, const char *bid, const char *path, const char *pattern,
			struct sdt_user_probe **out, size_t *n, size_t *cap);

#endif
