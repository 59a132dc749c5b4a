/* SPDX-License-Identifier: MIT */
/*
 * Who owns an sdtrace session, and when a later sdtrace may call that owner dead.
 *
 * A session's uprobe group names its owner: `sdtrace_<pid>_<start>_<seq>_<pidns>`, e.g.
 * `sdtrace_4242_81234_0_4026531836`: the owner's pid as its own pid namespace numbers it
 * (getpid()), its start time (field 22 of /proc/self/stat, clock ticks since boot), a sequence
 * number for two sets of one process, and the inode of its pid namespace (readlink
 * /proc/self/ns/pid says `pid:[4026531836]`). At most 58 bytes: the kernel takes 63.
 *
 * tracefs is one for the whole machine, but a pid means something only in its own namespace: a
 * container's sdtrace is pid 2 in its namespace and, say, 31337 on the host, whose pid 2 is
 * kthreadd. The name of the previous version, `sdtrace_<pid>_<start>_<seq>`, had no namespace,
 * and a sweep judged every name with its own /proc: a container's sdtrace took every live host
 * session for dead and the other way round. The kernel refuses to delete an event a perf fd
 * holds open (EBUSY), so a recording session survived that, but one between writing its
 * definitions and opening them did not, and neither did any group nobody holds.
 *
 * So a session is removed only when its owner is provably dead; anything that cannot be proven
 * is alive, and its probes are left alone:
 *
 *	our own namespace      kill(pid, 0) says ESRCH; or, through a /proc of our own namespace
 *	                       (NSpid of /proc/self/status has one level), the pid now has another
 *	                       start time, or is a zombie whose threads are all gone (its perf fds
 *	                       are closed: a container's init may never reap it)
 *	another namespace      through our own /proc: some process of that namespace is listed
 *	                       (so it is below ours, and all of its processes are listed) and none
 *	                       is the owner alive; or, in the initial pid namespace (inode
 *	                       0xEFFFFFFC, PROC_PID_INIT_INO since Linux 3.8) as root and with a
 *	                       /proc that hides nothing (no hidepid=, subset=), no process of it is
 *	                       left at all. A sibling or a parent namespace is invisible: never.
 *	the previous format    in the initial namespace as above, no process anywhere is the owner
 *	                       alive (its innermost pid, the last of NSpid, and its start time)
 *
 * Start times are compared only between processes of one time namespace (the kernel shifts
 * them by the reader's offsets). A /proc entry that cannot be read (other than gone) makes the
 * verdict "alive". The cost: a look at one pid for a session of our own namespace; a walk of
 * /proc (a few files per process) once per sweep for each group of another namespace.
 */
#ifndef SDT_SESSION_H
#define SDT_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The owner of a session, as its group name carries it. */
struct sdt_session_id {
	int pid;		  /* in the owner's own pid namespace */
	unsigned long long start; /* clock ticks since boot, as the owner read them */
	unsigned int seq;
	uint32_t pidns; /* the pid namespace's inode; 0: a name of the previous format */
};

/* A fresh session group name "sdtrace_<pid>_<starttime>_<seq>_<pidns>" into @buf. 0 or -errno. */
int sdt_uprobe_session_group(char *buf, size_t size);

/* This process's pid, start time and pid namespace into @id (seq untouched). 0 or -errno. */
int sdt_session_self(struct sdt_session_id *id);
/* "sdtrace_<pid>_<start>_<seq>_<pidns>" into @buf. 0 or -ENAMETOOLONG. */
int sdt_session_format(char *buf, size_t size, const struct sdt_session_id *id);
/*
 * Parse group name @name (@len bytes, not NUL-terminated) of either format. false for anything
 * else (digits only, no signs or spaces, no overflow, pid > 0): such a group is never touched.
 */
bool sdt_session_parse(const char *name, size_t len, struct sdt_session_id *id);

#define SDT_SESSION_VERDICTS 32

/*
 * One sweep's view of the machine, filled on first use; start it zeroed ({0}). uprobe_events has
 * one line per probe site, so the verdicts of the last groups judged are kept.
 */
struct sdt_session_sweep {
	bool ready;
	uint32_t pidns;	 /* ours; 0: unknown (then no other namespace is provable) */
	bool proc_ours;	 /* /proc is mounted for our pid namespace */
	bool sees_all;	 /* the initial pid namespace, its /proc, root: every process is listed */
	char timens[64]; /* readlink /proc/self/ns/time; "" on a kernel without time namespaces */
	struct {
		char group[64];
		bool dead;
	} verdict[SDT_SESSION_VERDICTS];
	unsigned int nverdicts;
};

/* Is the owner of group @group (@len bytes) provably dead? Unparsable names: false. */
bool sdt_session_group_dead(struct sdt_session_sweep *sw, const char *group, size_t len);

#endif
