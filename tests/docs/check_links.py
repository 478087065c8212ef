#!/usr/bin/env python3
"""Every relative link and image of the given Markdown files resolves: the file (or folder) exists in the
checkout, and a #fragment names a heading of that file (GitHub's anchors). Prints each broken link, exits 1."""
import os
import re
import sys

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def anchors(path):
    out = set()
    in_code = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                in_code = not in_code
            if in_code or not line.startswith("#"):
                continue
            text = line.lstrip("#").strip().lower()
            slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
            out.add(slug)
    return out


def main(files):
    bad = 0
    checked = 0
    for md in files:
        in_code = False
        with open(md, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if line.startswith("```"):
                    in_code = not in_code
                if in_code:
                    continue
                for target in LINK.findall(line):
                    if re.match(r"[a-z]+:", target):  # https:, mailto:
                        continue
                    checked += 1
                    path, _, frag = target.partition("#")
                    dest = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
                    if not os.path.exists(dest):
                        print(f"{md}:{n}: {target}: no such file")
                        bad += 1
                    elif frag and dest.endswith(".md") and frag not in anchors(dest):
                        print(f"{md}:{n}: {target}: no heading #{frag} in {dest}")
                        bad += 1
    print(f"{checked} relative links checked in {len(files)} files, {bad} broken")
    return 1 if bad or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
