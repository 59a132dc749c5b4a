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
	probe buffer_