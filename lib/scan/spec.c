/* SPDX-License-Identifier: MIT */
/*
 * Event specs ("[PATH:][%]provider[:event][(name[:type], ...)]" with globs): parsing and
 * matching. See spec.h; the typed argument list is parsed by types.c.
 */
#include <fnmatch.h>
#include <string.h>

#include "util/internal.h"
#include "sdtrace/spec.h"

struct sdt_spec {
	char *path;
	char *provider;
	char *event;
	bool glob;
	bool has_types;
	struct sdt_arg_type *types;
	size_t ntypes;
};

void sdt_spec__free(struct sdt_spec *s)
{
	if (!s)
		return;
	free(s->path);
	free(s->provider);
	free(s->event);
	sdt_arg_types__free(s->types, s->ntypes);
	free(s);
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* Characters a provider or event pattern may hold: a tracefs name plus glob characters. */
static bool valid_pattern(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		char c = *s;

		if (!(c == '_' || c == '*' || c == '?' || c == '[' || c == ']' || c == '!' ||
		      c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9')))
			return false;
	}
	return true;
}

/*
 * Split off a trailing "(name:type, ...)": *head gets the spec before it (malloc'ed), the list
 * is parsed into @s. No suffix: *head is a copy of @text.
 */
static int split_types(const char *text, struct sdt_spec *s, char **head)
{
	size_t len = strlen(text);
	const char *open;
	char *inner;
	int err;

	*head = NULL;
	/* the list is the last "(...)"; a '(' before the last '/' is part of an inline path */
	open = strrchr(text, '(');
	if (open && strrchr(text, '/') > open)
		open = NULL;
	if (!len || text[len - 1] != ')') {
		if (open)
			return sdt_err(
			    -EINVAL, "event spec '%s': '(' without a closing ')' at the end", text);
		*head = sdt_strdup(text);
		return *head ? 0 : sdt_err(-ENOMEM, "out of memory");
	}
	if (!open || strchr(open + 1, ')') != text + len - 1)
		return sdt_err(-EINVAL,
			       "event spec '%s': expected one (name[:type], ...) list at "
			       "the end",
			       text);
	inner = sdt_strndup(open + 1, (size_t)(text + len - 1 - (open + 1)));
	if (!inner)
		return sdt_err(-ENOMEM, "out of memory");
	err = sdt_arg_types__parse(inner, &s->types, &s->ntypes);
	free(inner);
	if (err)
		return err == -ENOMEM ? err : sdt_err_prefix(err, "event spec '%s'", text);
	s->has_types = true;
	*head = sdt_strndup(text, (size_t)(open - text));
	return *head ? 0 : sdt_err(-ENOMEM, "out of memory");
}

int sdt_spec__parse(const char *full, struct sdt_spec **out)
{
	struct sdt_spec *s;
	const char *ev, *colon;
	char *text = NULL;
	int err = -EINVAL;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return sdt_err(-ENOMEM, "out of memory");
	err = split_types(full, s, &text);
	if (err)
		goto fail;
	err = -EINVAL;
	ev = text;

	/*
	 * A binary named inline: "/path/bin:%prov:ev" or "./bin:prov:ev"; a bare name before ":%"
	 * ("libstdc++.so.6:%libstdcxx:throw", found as sdt_find_binary() finds it); or a glob naming
	 * several ("*:%prov:ev", "/usr/lib/jvm/<*>/libjvm.so:%prov:ev"): a provider holds no ":%".
	 * Without the '%' a bare "a:b" is provider:event, as perf reads it.
	 */
	if (text[0] == '/' || text[0] == '.' || (text[0] != '%' && strstr(text, ":%"))) {
		/* the last ":%": a path may hold one ("/opt/a:%b/bin"), a provider:event not */
		const char *split = NULL, *p;

		for (p = strstr(text, ":%"); p; p = strstr(p + 1, ":%"))
			split = p;

		if (!split) {
			/* no '%': the path ends at the second-to-last ':' */
			const char *last = strrchr(text, ':');

			split = last;
			if (last) {
				for (p = last - 1; p > text && *p != ':'; p--)
					;
				if (p > text)
					split = p;
			}
		}
		if (!split || split == text) {
			err = sdt_err(-EINVAL,
				      "event spec '%s': a binary must be followed by "
				      ":%%provider:event",
				      full);
			goto fail;
		}
		s->path = sdt_strndup(text, (size_t)(split - text));
		if (!s->path)
			goto nomem;
		ev = split + 1;
	}
	if (*ev == '%')
		ev++;
	colon = strchr(ev, ':');
	if (colon) {
		s->provider = sdt_strndup(ev, (size_t)(colon - ev));
		s->event = sdt_strdup(colon + 1);
	} else {
		s->provider = sdt_strdup(ev);
		s->event = sdt_strdup("*");
	}
	if (!s->provider || !s->event)
		goto nomem;
	if (!valid_pattern(s->provider) || !valid_pattern(s->event)) {
		err = sdt_err(-EINVAL,
			      "event spec '%s': expected [%%]provider[:event], "
			      "with letters, digits, '_' and globs",
			      full);
		goto fail;
	}
	s->glob = has_glob(s->provider) || has_glob(s->event);
	free(text);
	*out = s;
	return 0;
nomem:
	err = sdt_err(-ENOMEM, "out of memory");
fail:
	free(text);
	sdt_spec__free(s);
	return err;
}

bool sdt_spec__match(const struct sdt_spec *s, const char *provider, const char *name)
{
	if (fnmatch(s->event, name, 0))
		return false;
	if (!fnmatch(s->provider, provider, 0))
		return true;
	/* perf's group name: sdt_python:gc__start */
	if (!strncmp(s->provider, "sdt_", 4) && !fnmatch(s->provider + 4, provider, 0))
		return true;
	return false;
}

const char *sdt_spec__path(const struct sdt_spec *s)
{
	return s->path;
}

const char *sdt_spec__provider(const struct sdt_spec *s)
{
	return s->provider;
}

const char *sdt_spec__event(const struct sdt_spec *s)
{
	return s->event;
}

bool sdt_spec__is_glob(const struct sdt_spec *s)
{
	return s->glob;
}

bool sdt_spec__has_types(const struct sdt_spec *s)
{
	return s->has_types;
}

size_t sdt_spec__type_count(const struct sdt_spec *s)
{
	return s->ntypes;
}

const struct sdt_arg_type *sdt_spec__types(const struct sdt_spec *s)
{
	return s->types;
}

const struct sdt_arg_type *sdt_spec__type(const struct sdt_spec *s, size_t i)
{
	return i < s->ntypes ? &s->types[i] : NULL;
}
