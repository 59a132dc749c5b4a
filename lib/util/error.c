/* SPDX-License-Identifier: MIT */
/* The per-thread error message behind sdt_errmsg(), and small allocation helpers. */
#include <stdio.h>
#include <string.h>

#include "util/internal.h"

static __thread char errmsg[1024];

const char *sdt_errmsg(void)
{
	return errmsg;
}

const char *sdt_version(void)
{
	return SDTRACE_VERSION;
}

void sdt_err_clear(void)
{
	errmsg[0] = '\0';
}

int sdt_err(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(errmsg, sizeof(errmsg), fmt, ap);
	va_end(ap);
	errno = -err;
	return err;
}

int sdt_err_prefix(int err, const char *fmt, ...)
{
	char prefix[512], old[sizeof(errmsg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, errmsg, sizeof(old));
	if (!old[0])
		snprintf(old, sizeof(old), "%s", strerror(-err));
	/* The result may be cut at sizeof(errmsg); the start says what failed first. */
	size_t n = strnlen(prefix, sizeof(prefix));

	memcpy(errmsg, prefix, n);
	if (n + 2 < sizeof(errmsg)) {
		memcpy(errmsg + n, ": ", 2);
		n += 2;
		snprintf(errmsg + n, sizeof(errmsg) - n, "%s", old);
	} else {
		errmsg[sizeof(errmsg) - 1] = '\0';
	}
	errno = -err;
	return err;
}

void *sdt_reallocarray(void *ptr, size_t n, size_t size)
{
	size_t total;

	if (__builtin_mul_overflow(n, size, &total)) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(ptr, total ? total : 1);
}

char *sdt_strdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

char *sdt_strndup(const char *s, size_t n)
{
	return strndup(s, n);
}

char *sdt_asprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

int sdt_grow(void **arr, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 8;
	void *p;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -ENOMEM;
		ncap *= 2;
	}
	p = sdt_reallocarray(*arr, ncap, size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

bool sdt_valid_event_name(const char *s, size_t max)
{
	size_t i;

	if (!s || !s[0])
		return false;
	if (!(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return false;
	for (i = 0; s[i]; i++) {
		char c = s[i];

		if (i >= max)
			return false;
		if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9')))
			return false;
	}
	return true;
}
