/*
 * PostgreSQL's probes (provider "postgresql"), with argument names from the descriptions in the
 * PostgreSQL documentation ("Dynamic Tracing", table "Built-in DTrace Probes") and types from the
 * C expressions each probe passes. Written for sdtrace; checked against the notes of Debian 12's
 * /usr/lib/postgresql/15/bin/postgres (tests/e2e/t0500-provider-types.sh).
 *
 * Where a probe passes a C `bool` expression that the compiler widened (a literal `true`, an int
 * flag), the note holds a 4-byte int, and the type below says `int` so that the sizes agree.
 * `auto` (sdtrace's own) leaves the type to the note: sort__start's `unique` is a 1-byte bool at
 * one site and a widened 4-byte int at the others.
 */
#define LocalTransactionId unsigned int
#define LWLockMode int
#define LOCKMODE int
#define BlockNumber unsigned int
#define Oid unsigned int
#define ForkNumber int
#define BackendId int

provider postgresql {
	probe transaction__start(LocalTransactionId xid);
	probe transaction__commit(LocalTransactionId xid);
	probe transaction__abort(LocalTransactionId xid);

	/* LWLocks: the tranche's name and the requested mode (exclusive or shared) */
	probe lwlock__acquire(const char *tranche, LWLockMode mode);
	probe lwlock__release(const char *tranche);
	probe lwlock__wait__start(const char *tranche, LWLockMode mode);
	probe lwlock__wait__done(const char *tranche, LWLockMode mode);
	probe lwlock__condacquire(const char *tranche, LWLockMode mode);
	probe lwlock__condacquire__fail(const char *tranche, LWLockMode mode);
	probe lwlock__acquire__or__wait(const char *tranche, LWLockMode mode);
	probe lwlock__acquire__or__wait__fail(const char *tranche, LWLockMode mode);

	/* heavyweight locks: the lock tag's fields, the kind of object, the lock mode */
	probe lock__wait__start(unsigned int tag1, unsigned int tag2, unsigned int tag3,
				unsigned short tag4, unsigned char locktype, LOCKMODE mode);
	probe lock__wait__done(unsigned int tag1, unsigned int tag2, unsigned int tag3,
			       unsigned short tag4, unsigned char locktype, LOCKMODE mode);

	/* the query string */
	probe query__parse__start(const char *query);
	probe query__parse__done(const char *query);
	probe query__rewrite__start(const char *query);
	probe query__rewrite__done(const char *query);
	probe query__plan__start();
	probe query__plan__done();
	probe query__execute__start();
	probe query__execute__done();
	probe query__start(const char *query);
	probe query__done(const char *query);
	probe statement__status(const char *status);

	/* sort kind (heap, index, datum), unique, key columns, work_mem in kB, random access,
	 * 0 serial / 1 parallel worker / 2 parallel leader */
	probe sort__start(int sorttype, auto unique, int nkeys, int workmem, int randomaccess,
			  int parallel);
	/* external (on disk), space used (kB of disk or memory) */
	probe sort__done(int external, long space);

	/* fork, block, tablespace, database, relation, backend (-1: a shared buffer), extend */
	probe buffer__read__start(ForkNumber fork, BlockNumber block, Oid tablespace,
				  Oid database, Oid relation, BackendId backend, bool extend);
	probe buffer__read__done(ForkNumber fork, BlockNumber block, Oid tablespace,
				 Oid database, Oid relation, BackendId backend, bool extend,
				 bool found);
	probe buffer__flush__start(ForkNumber fork, BlockNumber block, Oid tablespace,
				   Oid database, Oid relation);
	probe buffer__flush__done(ForkNumber fork, BlockNumber block, Oid tablespace,
				  Oid database, Oid relation);
	probe buffer__write__dirty__start(ForkNumber fork, BlockNumber block, Oid tablespace,
					  Oid database, Oid relation);
	probe buffer__write__dirty__done(ForkNumber fork, BlockNumber block, Oid tablespace,
					 Oid database, Oid relation);

	probe buffer__checkpoint__start(int flags);
	probe buffer__checkpoint__sync__start();
	probe buffer__checkpoint__done();
	/* total buffers, buffers to write / the buffer written / total, written, to write */
	probe buffer__sync__start(int nbuffers, int to_write);
	probe buffer__sync__written(int buffer);
	probe buffer__sync__done(int nbuffers, int written, int to_write);

	probe deadlock__found();

	probe checkpoint__start(int flags);
	/* buffers written, total buffers, WAL files added, removed, recycled */
	probe checkpoint__done(int written, int nbuffers, int segs_added, int segs_removed,
			       int segs_recycled);
	/* true for a normal checkpoint, false for a shutdown checkpoint */
	probe clog__checkpoint__start(int normal);
	probe clog__checkpoint__done(int normal);
	probe subtrans__checkpoint__start(int normal);
	probe subtrans__checkpoint__done(int normal);
	probe multixact__checkpoint__start(int normal);
	probe multixact__checkpoint__done(int normal);
	probe twophase__checkpoint__start();
	probe twophase__checkpoint__done();

	/* fork, block, tablespace, database, relation, backend; bytes done, bytes requested */
	probe smgr__md__read__start(ForkNumber fork, BlockNumber block, Oid tablespace,
				    Oid database, Oid relation, BackendId backend);
	probe smgr__md__read__done(ForkNumber fork, BlockNumber block, Oid tablespace,
				   Oid database, Oid relation, BackendId backend, int bytes,
				   int requested);
	probe smgr__md__write__start(ForkNumber fork, BlockNumber block, Oid tablespace,
				     Oid database, Oid relation, BackendId backend);
	probe smgr__md__write__done(ForkNumber fork, BlockNumber block, Oid tablespace,
				    Oid database, Oid relation, BackendId backend, int bytes,
				    int requested);

	/* resource manager, info flags of the WAL record */
	probe wal__insert(unsigned char rmid, unsigned char info);
	probe wal__switch();
	probe wal__buffer__write__dirty__start();
	probe wal__buffer__write__dirty__done();
};
