/*
 * SSSD's static markers (provider "sssd"), with the argument names and types of SSSD's own
 * provider file (src/systemtap/sssd_probes.d) and Debian's tapset for them (sssd.stp). Written
 * for sdtrace; checked against the notes of Debian 12's sssd-common 2.8: sssd_be (dp_req_*),
 * libsss_util.so (sysdb_transaction_*) and libsss_ldap_common.so (sdap_*), 46 probes
 * (tests/e2e/t2200-runtimes-list.sh). sdap_save_group* and sdap_save_grpmem* are in newer SSSD.
 *
 * Every probe of SSSD is semaphore-gated. SSSD runs many requests at once on one thread (tevent):
 * a *_send and its *_recv (or dp_req_send and dp_req_done) interleave with those of other
 * requests, so the pairs below say which arguments tell them apart (`@sdtrace key:`); a pair of
 * probes without arguments can only be paired as nested calls.
 */
provider sssd {
	/* a sysdb (ldb) transaction starts, commits (before and after the write), is cancelled */
	probe sysdb_transaction_start(int nesting);
	probe sysdb_transaction_commit_before(int nesting);
	probe sysdb_transaction_commit_after(int nesting);
	probe sysdb_transaction_cancel(int nesting);

	/*
	 * An account request to LDAP starts / its result is received: what is looked up (user,
	 * group, ...), by what (name, id, ...), the value, and an extra value
	 * @sdtrace key: entry_type,filter_type,filter_value
	 */
	probe sdap_acct_req_send(int entry_type, int filter_type, const char *filter_value,
				 const char *extra_value);
	/* @sdtrace key: entry_type,filter_type,filter_value */
	probe sdap_acct_req_recv(int entry_type, int filter_type, const char *filter_value,
				 const char *extra_value);

	/* a user search: sent, saving its results begins and ends, received */
	/* @sdtrace key: filter */
	probe sdap_search_user_send(const char *filter);
	/* @sdtrace key: filter */
	probe sdap_search_user_save_begin(const char *filter);
	/* @sdtrace key: filter */
	probe sdap_search_user_save_end(const char *filter);
	/* @sdtrace key: filter */
	probe sdap_search_user_recv(const char *filter);

	/*
	 * An LDAP search is sent: its base, scope, filter, and the NULL-terminated array of the
	 * attributes asked for / its result is received
	 * @sdtrace key: base,scope,filter
	 */
	probe sdap_get_generic_ext_send(const char *base, int scope, const char *filter,
					const void *attrs);
	/* @sdtrace key: base,scope,filter */
	probe sdap_get_generic_ext_recv(const char *base, int scope, const char *filter);

	/*
	 * an attribute of an entry is parsed: name, value, the value's length (8 bytes in the
	 * notes, `int` in SSSD's file); the entry is done
	 */
	probe sdap_parse_entry(const char *attrname, const char *value, long length);
	probe sdap_parse_entry_done();

	/* a dereference search: its base DN and attribute */
	/* @sdtrace key: base_dn,deref_attr */
	probe sdap_deref_search_send(const char *base_dn, const char *deref_attr);
	/* @sdtrace key: base_dn,deref_attr */
	probe sdap_deref_search_recv(const char *base_dn, const char *deref_attr);

	/* the steps of resolving nested groups */
	probe sdap_nested_group_populate_pre();
	probe sdap_nested_group_populate_post();
	probe sdap_nested_group_save_pre();
	probe sdap_nested_group_save_post();
	probe sdap_nested_group_lookup_user_send();
	probe sdap_nested_group_lookup_user_recv();
	probe sdap_nested_group_lookup_group_send();
	probe sdap_nested_group_lookup_group_recv();
	probe sdap_nested_group_lookup_unknown_send();
	probe sdap_nested_group_lookup_unknown_recv();
	probe sdap_nested_group_deref_send();
	probe sdap_nested_group_deref_process_pre();
	probe sdap_nested_group_deref_process_post();
	probe sdap_nested_group_deref_recv();
	probe sdap_save_group_pre();
	probe sdap_save_group_post();
	probe sdap_save_grpmem_pre();
	probe sdap_save_grpmem_post();
	probe sdap_nested_group_send();
	probe sdap_nested_group_recv();
	/* @sdtrace key: orig_dn */
	probe sdap_nested_group_process_send(const char *orig_dn);
	probe sdap_nested_group_process_split_pre();
	probe sdap_nested_group_process_split_post();
	/* @sdtrace key: orig_dn */
	probe sdap_nested_group_process_recv(const char *orig_dn);
	probe sdap_nested_group_check_cache_pre();
	probe sdap_nested_group_check_cache_post();
	probe sdap_nested_group_sysdb_search_users_pre();
	probe sdap_nested_group_sysdb_search_users_post();
	probe sdap_nested_group_sysdb_search_groups_pre();
	probe sdap_nested_group_sysdb_search_groups_post();
	probe sdap_nested_group_populate_search_users_pre();
	probe sdap_nested_group_populate_search_users_post();

	/*
	 * The data provider starts a request: the domain, the request's name, its target (id,
	 * auth, access, ...) and method / the request is done: name, target, method, the result
	 * (an errno, 0: success) and its text
	 * @sdtrace key: dp_req_name
	 */
	probe dp_req_send(const char *domain, const char *dp_req_name, int target, int method);
	/* @sdtrace key: dp_req_name */
	probe dp_req_done(const char *dp_req_name, int target, int method, int ret,
			  const char *errorstr);
};
