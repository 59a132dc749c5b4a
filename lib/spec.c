/* SPDX-License-Identifier: MIT */
/* Event specs ("[PATH:][%]provider[:event]" with globs): parsing and matching. See spec.h. */
#include <fnmatch.h>
#include <string.h>

#include "internal.h"
#include "sdtrace/spec.h"

struct sdt_spec {
	char *path;
	char *provider;
	char *event;
	bool glob;
};

void sdt_spec__free(struct sdt_spec *s)
{
	if (!s)
		return;
	free(s->path);
	free(s->provider);
	free(s->event);
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

int sdt_spec__parse(const char *text, struct sdt_spec **out)
{
	struct sdt_spec *s;
	const char *ev = text, *colon;
	int err = -EINVAL;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return sdt_err(-ENOMEM, "out of memory");

	/* A binary named inline: "/path/bin:%prov:ev" or "./bin:prov:ev". */
	if (text[0] == '/' || text[0] == '.') {
		const char *split = strstr(text, ":%");

		if (!split) {
			/* no '%': the path ends at the second-to-last ':' */
			const char *last = strrchr(text, ':');

			split = last;
			if (last) {
				const char *p;

				for (p = last - 1; p > text && *p != ':'; p--)
					;
				if (p > text)
					split = p;
			}
		}
		if (!split || split == text) {
			err = sdt_err(-EINVAL, "event spec '%s': a binary must be followed by "
					       ":%%provider:event", text);
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
		err = sdt_err(-EINVAL, "event spec '%s': expected [%%]provider[:event], "
				       "with letters, digits, '_' and globs", text);
		goto fail;
	}
	s->glob = has_glob(s->provider) || has_glob(s->event);
	*out = s;
	return 0;
nomem:
	err = sdt_err(-ENOMEM, "out of memory");
fail:
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
