#!/usr/bin/env python3
"""The layer check of libsdtrace (run by `make check` as the CTest test layout/layers).

lib/ is cut into stage folders. A file may use its own stage and the stages below it:

    util  <  scan  <  cache  <  record, stack
                   <  trace  <  bpf  <  record   (trace and cache know nothing of each other;
                   <  trace  <  stack             bpf: the BPF engine's kernel side)

Two views of the same rule, both required:
  1. includes: every `#include "STAGE/..."` and every public `#include "sdtrace/X.h"` of a file
     under lib/STAGE/ names an allowed stage (a public header belongs to the stage that
     implements it: PUBLIC_STAGE below);
  2. calls: the object files of the build (nm) give, for every file, the functions it calls and
     where they are defined. A call into a higher stage fails, and so does any loop of files that
     call each other (a cycle, even inside one stage).

Inside lib/record/, the recorder's engines (engine.h) are folders (tracefs/, bpf/) around an
engine-neutral core (the files of lib/record/ itself): the core never includes or calls an
engine folder, except the registry (ENGINE_REGISTRY, which names each engine's ops table), and
an engine never includes or calls another.

Usage: check-layers.py SRC_DIR [OBJ_DIR [--cli CLI_OBJ_DIR]]   (OBJ_DIR: the build's
CMakeFiles/sdtrace_obj.dir; without it only the includes are checked. CLI_OBJ_DIR: the
build's CMakeFiles/sdtrace.dir: cli/ is checked for loops of files calling each other too).
Prints every violation and exits 1 if there is one.
"""
import os
import re
import subprocess
import sys

ALLOWED = {
    "util": {"util"},
    "scan": {"util", "scan"},
    "cache": {"util", "scan", "cache"},
    "trace": {"util", "scan", "trace"},
    "bpf": {"util", "scan", "trace", "bpf"},
    "record": {"util", "scan", "cache", "trace", "bpf", "record"},
    "stack": {"util", "scan", "cache", "trace", "stack"},
}
# include/sdtrace/X.h -> the stage whose files implement it
PUBLIC_STAGE = {
    "common.h": "util", "sdtrace.h": "util", "text.h": "util",
    "scan.h": "scan", "spec.h": "scan", "types.h": "scan", "proc.h": "scan", "find.h": "scan",
    "cache.h": "cache", "debuginfod.h": "cache", "probe.h": "cache",
    "trace.h": "trace", "trace_writer.h": "trace", "latency.h": "trace", "filter.h": "trace",
    "record.h": "record", "record_specs.h": "record",
    "stack.h": "stack",
}
ENGINE_HOST = "lib/record/"
ENGINE_REGISTRY = "lib/record/engines.c"
# Files compiled in one configuration only (CMakeLists.txt, SDTRACE_BPF): the BPF engine, or the
# stand-in for it; the one not built has no object file.
ONE_OF = {"lib/bpf/bpf.c", "lib/bpf/attach.c", "lib/bpf/msg.c", "lib/bpf/none.c"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def lib_files(src):
    out = []
    for root, _, names in os.walk(os.path.join(src, "lib")):
        for n in names:
            # *.bpf.c: the BPF program, built by clang -target bpf, not part of the library
            if n.endswith((".c", ".h")) and not n.endswith(".bpf.c"):
                out.append(os.path.relpath(os.path.join(root, n), src))
    return sorted(out)


def stage_of(path):
    parts = path.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "lib" else None


def check_includes(src, files, errors):
    for f in files:
        stage = stage_of(f)
        if stage not in ALLOWED:
            errors.append(f"{f}: not in a stage folder ({', '.join(ALLOWED)})")
            continue
        with open(os.path.join(src, f), encoding="utf-8") as fh:
            text = fh.read()
        for m in INCLUDE.finditer(text):
            inc = m.group(1)
            top = inc.split("/")[0]
            if top == "sdtrace":
                target = PUBLIC_STAGE.get(inc.split("/", 1)[1])
                if target is None:
                    errors.append(f"{f}: includes {inc}, a public header with no stage "
                                  "(add it to PUBLIC_STAGE in scripts/check-layers.py)")
                    continue
            elif top in ALLOWED and "/" in inc:
                target = top
            else:
                errors.append(f'{f}: includes "{inc}": name a private header by its stage '
                              'folder ("scan/file.h")')
                continue
            if target not in ALLOWED[stage]:
                errors.append(f"{f}: includes {inc} ({target}), above its stage {stage}")


def symbols(obj):
    """(defined, undefined) global symbols of one object file."""
    out = subprocess.run(["nm", "-P", obj], check=True, capture_output=True,
                         text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind in "TDBRVWGSC":
            defined.add(name)
    return defined, undefined


def strongly_connected(graph):
    """Tarjan's algorithm: the components of more than one file (or a file calling itself is
    no loop: a self edge is not added)."""
    index, low, on_stack, stack, comps, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return comps


def engine_of(path):
    """'core' for a file of lib/record/ itself, the engine's folder name for one below, else
    None. An include "record/X/..." names a path under lib/."""
    if not path.startswith(ENGINE_HOST):
        return None
    rest = path[len(ENGINE_HOST):]
    return rest.split("/")[0] if "/" in rest else "core"


def engine_violation(f, g):
    """Why file @f may not use file @g (an engine's), or None."""
    a, b = engine_of(f), engine_of(g)
    if a is None or b is None or a == b or b == "core" or f == ENGINE_REGISTRY:
        return None
    if a == "core":
        return "the core of lib/record/ uses no engine (engine.h: through r->eng)"
    return "an engine uses no other engine"


def check_engines(src, files, why, errors):
    for f in files:
        with open(os.path.join(src, f), encoding="utf-8") as fh:
            text = fh.read()
        for m in INCLUDE.finditer(text):
            reason = engine_violation(f, "lib/" + m.group(1))
            if reason:
                errors.append(f"{f}: includes {m.group(1)}: {reason}")
    for (f, g), names in sorted(why.items()):
        reason = engine_violation(f, g)
        if reason:
            errors.append(f"{f} calls {', '.join(sorted(names)[:4])} of {g}: {reason}")


def check_calls(src, objdir, files, errors):
    defs, uses = {}, {}
    for f in files:
        if not f.endswith(".c"):
            continue
        obj = os.path.join(objdir, f + ".o")
        if not os.path.exists(obj):
            if f in ONE_OF:
                continue
            errors.append(f"{f}: no object file {obj} (build first)")
            continue
        d, u = symbols(obj)
        uses[f] = u
        for name in d:
            defs[name] = f
    graph, why = {}, {}
    for f, used in uses.items():
        for name in used:
            g = defs.get(name)
            if g is None or g == f:
                continue
            graph.setdefault(f, set()).add(g)
            why.setdefault((f, g), set()).add(name)
    for (f, g), names in sorted(why.items()):
        if stage_of(g) not in ALLOWED[stage_of(f)]:
            errors.append(f"{f} calls {', '.join(sorted(names)[:4])} of {g}, above its "
                          f"stage {stage_of(f)}")
    for comp in strongly_connected(graph):
        ties = [f"{a} -> {b} ({', '.join(sorted(why[(a, b)])[:3])})"
                for a in comp for b in comp if (a, b) in why]
        errors.append("files that call each other in a loop: " + "; ".join(ties))
    return why


def check_cli_cycles(src, objdir, errors):
    """cli/: no loop of files that call each other (main.c dispatches to the commands, the
    commands call the helpers; a helper never calls back). From the sdtrace target's objects."""
    files = sorted(os.path.join("cli", n) for n in os.listdir(os.path.join(src, "cli"))
                   if n.endswith(".c"))
    defs, uses = {}, {}
    for f in files:
        obj = os.path.join(objdir, f + ".o")
        if not os.path.exists(obj):
            errors.append(f"{f}: no object file {obj} (build first)")
            continue
        d, uses[f] = symbols(obj)
        for name in d:
            defs[name] = f
    graph, why = {}, {}
    for f, used in uses.items():
        for name in used:
            g = defs.get(name)
            if g is not None and g != f:
                graph.setdefault(f, set()).add(g)
                why.setdefault((f, g), set()).add(name)
    for comp in strongly_connected(graph):
        ties = [f"{a} -> {b} ({', '.join(sorted(why[(a, b)])[:3])})"
                for a in comp for b in comp if (a, b) in why]
        errors.append("cli/: files that call each other in a loop: " + "; ".join(ties))


def main(argv):
    cli_objdir = None
    if len(argv) == 5 and argv[3] == "--cli":
        cli_objdir = argv.pop()
        argv.pop()
    if len(argv) not in (2, 3):
        print(next(l for l in __doc__.splitlines() if l.startswith("Usage")), file=sys.stderr)
        return 2
    src = argv[1]
    files = lib_files(src)
    errors = []
    check_includes(src, files, errors)
    why = check_calls(src, argv[2], files, errors) if len(argv) == 3 else {}
    check_engines(src, files, why, errors)
    if cli_objdir:
        check_cli_cycles(src, cli_objdir, errors)
    for e in errors:
        print("layers: " + e)
    print(f"layers: {len(files)} files of lib/, {len(errors)} violation(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
