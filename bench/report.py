#!/usr/bin/env python3
"""Print the benchmark results (JSON lines from abtime.py and the b*.sh scripts) as a markdown
table: figure, ours (median), peer (median), ratio ours/peer, command."""
import json
import sys

rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print("\n| figure | ours (median) | peer | peer (median) | ours/peer |")
print("|---|---|---|---|---|")
for r in rows:
    if "rows" in r:
        ours = r["rows"][0]
        for peer in r["rows"][1:]:
            print(f"| {r['label']} | {ours['median_ms']:.2f} ms | `{peer['cmd']}` | "
                  f"{peer['median_ms']:.2f} ms | {1 / peer['ratio_to_first']:.3f} |")
    elif "figure" in r:
        print(f"| {r['figure']} | {r['ours']} | `{r['peer_cmd']}` | {r['peer']} | {r.get('ratio', '')} |"
              + (f" target {r['target']}" if r.get("target") else ""))
growth = {}
for r in rows:
    if "growth" in r:
        growth.setdefault(r["growth"], []).append([r["x"]] + r["values"])
for title, lines in growth.items():
    cols = [c.strip() for c in title.split("|")]
    print("\n| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for l in lines:
        print("| " + " | ".join(l) + " |")
