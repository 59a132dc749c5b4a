/*
 * libvirt's static markers (provider "libvirt"), with the argument names and types of
 * libvirt's own provider files (src/libvirt_probes.d for libvirt.so.0 and the daemons,
 * src/qemu/libvirt_qemu_probes.d for the QEMU driver). Written for sdtrace; checked against the
 * notes of Debian 12's libvirt0 (libvirt 9.0): 40 probes (tests/e2e/t2200-runtimes-list.sh).
 * libvirtd adds the rpc_server_client_auth_* probes, libvirt_driver_qemu.so the qemu_monitor_*.
 *
 * Debian's build passes every argument of these probes as 8 bytes (its notes: `8@...`), where
 * libvirt's files say `int`: the integers are typed `long` here, as the notes are.
 *
 * Pointers (a client, a socket, an object) are addresses: they tell objects apart and are the
 * keys of the pairs below. An RPC call is a message queued for sending and its reply received,
 * not always on the same thread (a daemon's workers reply to what its event loop received), both
 * with the client and the call's serial: the pairs below pair on their key alone, whatever the
 * thread (`@sdtrace pair-by: key`, as `report --latency --pair-by key` does for every pair).
 */
provider libvirt {
	/* the GLib event loop: file handles (watches) and timers added, changed, dispatched */
	probe event_glib_add_handle(long watch, long fd, long events, void *cb, void *opaque,
				    void *ff);
	probe event_glib_update_handle(long watch, long events);
	probe event_glib_remove_handle(long watch);
	probe event_glib_remove_handle_idle(long watch, void *ff, void *opaque);
	probe event_glib_dispatch_handle(long watch, long events, void *cb, void *opaque);
	probe event_glib_add_timeout(long timer, long frequency, void *cb, void *opaque, void *ff);
	probe event_glib_update_timeout(long timer, long frequency);
	probe event_glib_remove_timeout(long timer);
	probe event_glib_remove_timeout_idle(long timer, void *ff, void *opaque);
	probe event_glib_dispatch_timeout(long timer, void *cb, void *opaque);

	/* virObject's life: created (with its class's name), referenced, released, disposed */
	/*
	 * an object's life, new to disposed
	 * @sdtrace pair: object_dispose
	 * @sdtrace key: obj
	 * @sdtrace pair-by: key
	 */
	probe object_new(void *obj, const char *klassname);
	probe object_ref(void *obj);
	probe object_unref(void *obj);
	/* @sdtrace key: obj */
	probe object_dispose(void *obj);

	/* RPC sockets: created (fd, error fd, the child's pid, addresses), fds passed */
	probe rpc_socket_new(void *sock, long fd, long errfd, long pid, const char *localAddr,
			     const char *remoteAddr);
	probe rpc_socket_dispose(void *sock);
	probe rpc_socket_send_fd(void *sock, long fd);
	probe rpc_socket_recv_fd(void *sock, long fd);

	/*
	 * A daemon's client: its messages queued for sending / received: the length, the RPC
	 * program, version and procedure, the message type, status and serial
	 */
	probe rpc_server_client_new(void *client, void *sock);
	probe rpc_server_client_dispose(void *client);
	/* @sdtrace key: client,serial */
	probe rpc_server_client_msg_tx_queue(void *client, long len, long prog, long vers, long proc,
					     long type, long status, long serial);
	/*
	 * a call received, to its reply queued
	 * @sdtrace pair: rpc_server_client_msg_tx_queue
	 * @sdtrace key: client,serial
	 * @sdtrace pair-by: key
	 */
	probe rpc_server_client_msg_rx(void *client, long len, long prog, long vers, long proc,
				       long type, long status, long serial);

	/* the client side (virsh, any program using libvirt.so.0): the same */
	probe rpc_client_new(void *client, void *sock);
	probe rpc_client_dispose(void *client);
	/*
	 * a call queued, to its reply received
	 * @sdtrace pair: rpc_client_msg_rx
	 * @sdtrace key: client,serial
	 * @sdtrace pair-by: key
	 */
	probe rpc_client_msg_tx_queue(void *client, long len, long prog, long vers, long proc,
				      long type, long status, long serial);
	/* @sdtrace key: client,serial */
	probe rpc_client_msg_rx(void *client, long len, long prog, long vers, long proc, long type,
				long status, long serial);

	/* a daemon authenticates a client: the method, the identity (libvirtd) */
	probe rpc_server_client_auth_allow(void *client, long authtype, const char *identity);
	probe rpc_server_client_auth_deny(void *client, long authtype, const char *identity);
	probe rpc_server_client_auth_fail(void *client, long authtype);

	/* TLS: a context (its files, its checks), its sessions allowed, denied, failed */
	probe rpc_tls_context_new(void *ctxt, const char *cacert, const char *cacrl,
				  const char *cert, const char *key, long sanityCheckCert,
				  long requireValidCert, long isServer);
	probe rpc_tls_context_dispose(void *ctxt);
	probe rpc_tls_context_session_allow(void *ctxt, void *sess, const char *dname);
	probe rpc_tls_context_session_deny(void *ctxt, void *sess, const char *dname);
	probe rpc_tls_context_session_fail(void *ctxt, void *sess);
	probe rpc_tls_session_new(void *sess, void *ctxt, const char *hostname, long isServer);
	probe rpc_tls_session_dispose(void *sess);
	probe rpc_tls_session_handshake_pass(void *sess);
	probe rpc_tls_session_handshake_fail(void *sess);

	/* keepalive: its life, pings sent and received, a peer given up after count pings */
	probe rpc_keepalive_new(void *ka, void *client);
	probe rpc_keepalive_dispose(void *ka);
	probe rpc_keepalive_start(void *ka, void *client, long interval, long count);
	probe rpc_keepalive_stop(void *ka, void *client);
	probe rpc_keepalive_send(void *ka, void *client, long prog, long vers, long proc);
	probe rpc_keepalive_received(void *ka, void *client, long prog, long vers, long proc);
	probe rpc_keepalive_timeout(void *ka, void *client, long countToDeath, long idle);

	/* the QEMU driver's monitor connection: its life */
	probe qemu_monitor_new(void *mon, long fd);
	probe qemu_monitor_ref(void *mon);
	probe qemu_monitor_unref(void *mon);
	probe qemu_monitor_close(void *mon);
	/* a command sent (its text, an fd passed with it), a reply or an event received */
	/*
	 * a command sent, to its reply
	 * @sdtrace pair: qemu_monitor_recv_reply
	 * @sdtrace key: mon
	 * @sdtrace pair-by: key
	 */
	probe qemu_monitor_send_msg(void *mon, const char *msg, long fd);
	/* @sdtrace key: mon */
	probe qemu_monitor_recv_reply(void *mon, const char *reply);
	probe qemu_monitor_recv_event(void *mon, const char *event);
	/* the monitor's I/O: bytes processed, read, written (the result and errno), fds sent */
	probe qemu_monitor_io_process(void *mon, const char *buf, unsigned long len);
	probe qemu_monitor_io_read(void *mon, const char *buf, unsigned long len, long ret,
				   long err);
	probe qemu_monitor_io_write(void *mon, const char *buf, unsigned long len, long ret,
				    long err);
	probe qemu_monitor_io_send_fd(void *mon, long fd, long ret, long err);
};
