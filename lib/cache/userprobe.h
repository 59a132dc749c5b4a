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
struct sdt_elf;
struct sdt_file;
struct sdt_probes;
struct sdt_probes_entry;

/* A user probe (userprobe_model.c), behind the accessors of sdtrace/probe.h. */
struct sdt_user_probe {
	char *name;	/* the event name */
	char *group;	/* the group perf gives it: "probe_" + the binary's base name */
	char *path;	/* real path of the binary */
	char *build_id; /* of the binary (NULL when listed from an entry perf wrote without) */
	char *location; /* as given */
	char **args;	/* NAME=FETCH:TYPE, as given */
	size_t nargs;
	bool is_return;
	char *header; /* the `#` line without its '#' */
	char **lines; /* the `p:`/`r:` lines, one per site */
	size_t nlines;
};

struct sdt_user_probes {
	struct sdt_user_probe *p;
	size_t n;
};

/* Free what @p points to and zero it (not @p: it lives on the stack or in an array). */
void sdt_userprobe_release(struct sdt_user_probe *p);
/* Release the @n probes of the array @p and free it. */
void sdt_userprobe_array_free(struct sdt_user_probe *p, size_t n);

/*
 * Where @loc ("SYMBOL", "SYMBOL+OFF", "SYMBOL%return", "0xADDRESS") puts a uprobe in @e (named
 * @path in messages): *off the file offset, *is_return. Checked as `probe add` checks it: one
 * symbol, inside the function, on an instruction boundary. 0 or -errno with the message.
 */
int sdt_userprobe_resolve_location(struct sdt_elf *e, const char *path, const char *loc,
				   bool *is_return, uint64_t *off);

/*
 * The user probe of the '#' entry @e of the cache entry (@path, @bid), as sdt_cache__probes()
 * lists it (release with sdt_userprobe_release()). 0 or -errno with the message.
 */
int sdt_userprobe_from_entry(const struct sdt_probes_entry *e, const char *path, const char *bid,
			     struct sdt_user_probe *u);

/* ---- a stored user probe against its binary (userprobe_verify.c) ---- */

/* One uprobe a user probe's definition gives: everything that reaches the kernel but the args. */
struct sdt_uprobe_site {
	uint64_t offset;	   /* file offset of the probed instruction */
	uint64_t semaphore;	   /* the SDT semaphore's address; 0: none */
	uint64_t semaphore_offset; /* its file offset (semaphore != 0) */
	bool is_return;
};

/*
 * Open the ELF file on @fd (a descriptor of ours, not consumed; @name in messages and in
 * (*f)->path) twice over one libelf handle: scanned into *f and kept open as @e for its symbol
 * tables and code. Its build-id must be @bid: -ESTALE otherwise (another file in its place). 0
 * or -errno with the message; on success release both with sdt_file__free(), sdt_elf_close().
 */
int sdt_build_open(int fd, const char *name, const char *bid, struct sdt_file **f,
		   struct sdt_elf *e);

/*
 * Resolve the definition of the stored user probe @p (its header's location) again in @e / @f,
 * the verified build of @p->build_id (the first @nnotes sites of @f are its SDT notes), and
 * require that its p:/r: lines say exactly that: the same number of sites, each of the same kind
 * (p/r), binary, offset and semaphore, with the definition's arguments. Returns the sites in
 * *out (*n, malloc'ed) or -errno with the disagreement named in the message, which says what is
 * wrong with the probe ("does not match its binary: its line 1 is at 0x113b, its definition
 * 'do_work' at 0x1139"): the caller names the probe. -EINVAL (they disagree, or the definition
 * does not resolve), -EOPNOTSUPP (a location of perf's that needs DWARF: not verifiable here),
 * -ENOMEM.
 */
int sdt_userprobe_locate(struct sdt_elf *e, const struct sdt_file *f, size_t nnotes,
			 const struct sdt_user_probe *p, struct sdt_uprobe_site **out, size_t *n);


/*
 * Append to *out (*n entries, *cap allocated) the user probes of the cache entry (@bid, @path)
 * whose names match the glob @pattern (NULL: all). 0 or -errno.
 */
int sdt_userprobe_entry(struct sdt_cache *c, const char *bid, const char *path, const char *pattern,
			struct sdt_user_probe **out, size_t *n, size_t *cap);

#endif
