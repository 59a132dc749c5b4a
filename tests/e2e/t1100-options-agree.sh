#!/bin/sh
# SPDX-License-Identifier: MIT
# The options of every command (and subcommand, and the global ones) are the same in four
# places: `sdtrace CMD --help`, the man page (man/sdtrace-CMD.1.scd), the bash completion
# (completion/sdtrace.bash, asked as bash asks it), and the command's getopt table in cli/.
# Also: `sdtrace help CMD` prints what `sdtrace CMD --help` prints; every command has a man
# page and is completed; every option of a man page appears in one of its EXAMPLES; the
# generated man pages render without warnings.
#
# When an option is added: its --help line, its man page entry and an example there, and the
# completion's _sdtrace_opts_CMD line (plus _sdtrace_takes_value when it takes a value).
. "$(dirname "$0")/lib.sh"
need_cmd python3 bash
COMPLETION=$SRC_DIR/completion/sdtrace.bash
need_file "$COMPLETION" "$SRC_DIR/man/sdtrace.1.scd"

python3 - "$SDTRACE" "$SRC_DIR" "$COMPLETION" "$SRC_DIR/tests/e2e/complete-driver.bash" "$BUILD_DIR" >"$T/report" 2>&1 <<'EOF'
import os, re, shutil, subprocess, sys

sdtrace, src, completion, driver, build = sys.argv[1:6]
failures = 0
count = 0

def result(ok, name, detail=""):
    global failures, count
    count += 1
    print(("ok %d - %s" if ok else "not ok %d - %s") % (count, name))
    if not ok:
        failures += 1
        for line in detail.splitlines():
            print("#   " + line)

OPT = re.compile(r"(?<![\w-])(--?[A-Za-z][A-Za-z0-9-]*)")
HELP = {"-h", "--help"}  # every command has them; not compared

def run(*args):
    p = subprocess.run([sdtrace, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr

# ---- --help ------------------------------------------------------------------------------------
def help_text(cmd, sub):
    args = ([cmd] if cmd else []) + ([sub] if sub else []) + ["--help"]
    return run(*args)

def help_opts(text, words):
    """Options of a --help text: the lines that start with '-' (before the examples), and the
    usage lines after the command words."""
    opts = set()
    for line in text.splitlines():
        s = line.strip()
        if s.lower().rstrip(":") in ("examples", "example"):
            break
        if s.startswith("usage:") or (line.startswith(" ") and s.startswith("sdtrace ")):
            if not words:
                continue
            m = re.search(r"\b" + r"\s+".join(words) + r"\b", s)
            if m:
                opts |= set(OPT.findall(s[m.end():]))
        elif line.startswith(" ") and s.startswith("-") and not s.startswith("-- "):
            head = re.split(r"\s{2,}", s)[0]
            opts |= set(OPT.findall(head))
    return opts - HELP

# ---- man pages ---------------------------------------------------------------------------------
subpages = set()  # the pages of commands with subcommands

def man_parse(page):
    """{sub or None: options}, {sub or None: [example lines]}, commands of sdtrace(1)."""
    opts, examples, commands = {}, {}, []
    section, sub, literal = None, None, False
    path = os.path.join(src, "man", page + ".1.scd")
    if not os.path.exists(path):
        return opts, examples, commands
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("```"):
                literal = not literal
                continue
            if literal:
                # "VAR=value sdtrace ...": the command after the environment
                s = re.sub(r"^([A-Za-z_]\w*=\S*\s+)+", "", line.strip())
                if section == "EXAMPLES" and s.startswith("sdtrace"):
                    exsub = None
                    if page in subpages:
                        # sdtrace [--cache-dir DIR] cache SUB ...
                        m = re.search(r"\b%s\s+([a-z]+)" % page[len("sdtrace-"):], s)
                        exsub = m.group(1) if m else None
                    examples.setdefault(exsub, []).append(s)
                continue
            if line.startswith("# "):
                section, sub = line[2:].strip(), None
            elif line.startswith("## "):
                sub = line[3:].strip()
            elif line.startswith("*-"):
                opts.setdefault(sub, []).append(set(re.findall(r"\*(--?[A-Za-z][A-Za-z0-9-]*)", line)))
            elif section == "COMMANDS" and page == "sdtrace" and re.match(r"^\*[a-z]+\*", line):
                commands.append(re.match(r"^\*([a-z]+)\*", line).group(1))
    return opts, examples, commands

# ---- completion --------------------------------------------------------------------------------
def complete(line):
    p = subprocess.run(["bash", driver, completion, line], capture_output=True, text=True)
    return [w for w in p.stdout.split("\n") if w], p.stderr

# ---- source: the getopt tables -----------------------------------------------------------------
def source_opts(cmd):
    path = os.path.join(src, "cli", "cmd-%s.c" % cmd)
    text = open(path).read()
    setup = open(os.path.join(src, "cli", "record-setup.c")).read()
    longs = set(re.findall(r'\{[\s\\]*"([a-z][a-z0-9-]*)",\s*(?:no|required|optional)_argument', text))
    shorts = set()
    # record, trace and stat: the shared table of record-setup.c (shared_opts, SHARED_SHORT) and
    # the command's own, through rec_setup_parse() with a struct rec_command {name, usage, "SHORT", ...}
    if "rec_setup_parse" in text:
        longs |= set(re.findall(r'\{[\s\\]*"([a-z][a-z0-9-]*)",\s*(?:no|required|optional)_argument', setup))
        m = re.search(r'#define SHARED_SHORT\s+"([^"]*)"', setup)
        shorts |= {c for c in (m.group(1) if m else "") if c.isalpha()}
        m = re.search(r'struct rec_command \w+ = \{"[a-z]+", \w+, "([^"]*)"', text)
        shorts |= {c for c in (m.group(1) if m else "") if c.isalpha()}
    # options compared by hand: strcmp(arg, "--json")
    longs |= {s[2:] for s in re.findall(r'"(--[a-z][a-z0-9-]*)"', text)}
    for m in re.finditer(r'getopt_long\(\s*\w+,\s*\w+,\s*((?:"[^"]*"|\s)+),', text):
        spec = "".join(re.findall(r'"([^"]*)"', m.group(1)))
        shorts |= {c for c in spec if c.isalpha()}
    return ({"--" + l for l in longs} | {"-" + c for c in shorts}) - HELP

# ---- the commands ------------------------------------------------------------------------------
rc, top, err = run("--help")
commands = []
for line in top.split("commands:", 1)[-1].splitlines()[1:]:
    m = re.match(r"^  ([a-z]+)\s", line)
    if not m:
        break
    commands.append(m.group(1))
result(rc == 0 and len(commands) >= 6, "sdtrace --help lists the commands", top + err)
gopts, gex, man_commands = man_parse("sdtrace")
result(set(commands) == set(man_commands) - {"help"}, "sdtrace(1) describes the same commands as --help",
       "--help: %s\nman:    %s" % (sorted(commands), sorted(man_commands)))
comp_cmds, e = complete("sdtrace ")
result(set(commands) | {"help"} == set(comp_cmds), "the completion offers the same commands (and help)",
       "--help: %s\ncompletion: %s\n%s" % (sorted(commands), sorted(comp_cmds), e))
for c in commands:
    result(os.path.exists(os.path.join(src, "man", "sdtrace-%s.1.scd" % c)),
           "%s: has a man page (man/sdtrace-%s.1.scd)" % (c, c))

# (cmd, sub): cmd None = the global options
# Commands with subcommands (cache, probe): their --help has a line per subcommand,
# "  SUB [OPTIONS] ARGS   what it does", whose options count as the subcommand's.
units = [(None, None)]
subline_opts = {}
for c in commands:
    rc, chelp, _ = run(c, "--help")
    if "<subcommand>" not in chelp:
        units.append((c, None))
        continue
    subpages.add("sdtrace-" + c)
    subs = []
    for m in re.finditer(r"^  ([a-z]+)\b(.*)$", chelp.split("\nexamples:")[0], re.M):
        if not m.group(2).strip():
            continue
        subs.append(m.group(1))
        subline_opts[(c, m.group(1))] = set(OPT.findall(re.split(r"\s{2,}", m.group(2).strip())[0])) - HELP
    result(len(subs) >= 2, "sdtrace %s --help lists the subcommands" % c, chelp)
    comp_subs, e = complete("sdtrace %s " % c)
    result(set(subs) == set(comp_subs), "the completion offers the same %s subcommands" % c,
           "--help: %s\ncompletion: %s" % (sorted(subs), sorted(comp_subs)))
    page = os.path.join(src, "man", "sdtrace-%s.1.scd" % c)
    sections = re.findall(r"^## ([a-z]+)", open(page).read(), re.M) if os.path.exists(page) else []
    result(set(subs) <= set(sections), "sdtrace-%s(1) has a section per subcommand" % c,
           "subcommands: %s\nsections: %s" % (sorted(subs), sorted(sections)))
    units += [(c, s) for s in subs]

source_union = {}
for cmd, sub in units:
    name = " ".join(w for w in ("sdtrace", cmd, sub) if w)
    words = [w for w in (cmd, sub) if w]
    rc, text, err = help_text(cmd, sub)
    result(rc == 0 and text and not err, "%s --help: exit 0, on stdout" % name, err)
    h = help_opts(text, words) | subline_opts.get((cmd, sub), set())
    if cmd and not sub:
        rc2, text2, err2 = run("help", *words)
        result(rc2 == 0 and text2 == text, "'sdtrace help %s' prints what '%s --help' prints" % (" ".join(words), name),
               "help: rc %d\n%s%s" % (rc2, text2[:500], err2))
    page = "sdtrace-%s" % cmd if cmd else "sdtrace"
    mo, mex, _ = man_parse(page)
    entries = mo.get(sub, [])
    m = set().union(*entries) - HELP if entries else set()
    line = "sdtrace %s -" % " ".join(words) if words else "sdtrace -"
    comp, e = complete(line)
    c = {w.rstrip("=") for w in comp} - HELP
    result(h == m, "%s: --help and the man page (%s) list the same options" % (name, page),
           "only in --help: %s\nonly in the man page: %s" % (sorted(h - m), sorted(m - h)))
    result(h == c, "%s: --help and the completion list the same options" % name,
           "only in --help: %s\nonly in the completion: %s\n%s" % (sorted(h - c), sorted(c - h), e))
    # every option entry of the man page is shown in one of its examples
    ex_words = set()
    for l in mex.get(sub, []):
        ex_words |= set(OPT.findall(l.split("|")[0]))
    missing = [sorted(en) for en in entries if not (en - HELP) <= set() and not (en & ex_words)]
    result(not missing, "%s: every option has an example in %s(1)" % (name, page),
           "without an example: %s" % missing)
    if cmd:
        source_union.setdefault(cmd, set()).update(h)

# the getopt tables (a command's subcommands share its file)
for cmd, opts in source_union.items():
    if not os.path.exists(os.path.join(src, "cli", "cmd-%s.c" % cmd)):
        result(False, "%s: cli/cmd-%s.c exists" % (cmd, cmd))
        continue
    s = source_opts(cmd)
    result(s == opts, "sdtrace %s: the source (cli/cmd-%s.c) takes the options --help lists" % (cmd, cmd),
           "only in the source: %s\nonly in --help: %s" % (sorted(s - opts), sorted(opts - s)))

# the generated pages render cleanly
mandir = os.path.join(build, "man")
pages = sorted(p for p in os.listdir(mandir) if p.endswith(".1")) if os.path.isdir(mandir) else []
result(len(pages) == len([p for p in os.listdir(os.path.join(src, "man")) if p.endswith(".scd")]),
       "the build generated a man page per man/*.scd", "generated: %s" % pages)
env = dict(os.environ, MANWIDTH="80", LC_ALL="C.UTF-8")
if pages and not shutil.which("man"):
    print("NOTE: man is not installed: the generated pages are not rendered")
    pages = []
for p in pages:
    r = subprocess.run(["man", "--warnings", "-l", os.path.join(mandir, p)], capture_output=True,
                       text=True, env=env)
    result(r.returncode == 0 and "NAME" in r.stdout and not r.stderr.strip(),
           "man -l %s: renders without warnings" % p, r.stderr[:1000])

print("RESULT %d %d" % (count - failures, failures))
EOF
# fold the python checks into this test's counts
while IFS= read -r line; do
	case $line in
	"ok "*) pass "${line#ok * - }" ;;
	"not ok "*) fail "${line#not ok * - }" ;;
	"#   "*) printf '%s\n' "$line" ;;
	"RESULT "*) ;;
	*) printf '# %s\n' "$line" ;;
	esac
done <"$T/report"
grep -q '^RESULT ' "$T/report" || fail "the checks ran to their end"
finish
