#!/usr/bin/env python3
"""check_functions.py SOURCE_DIR [MAX_LINES] -- no function of the library (src/) or the command
line (cli/) is longer than MAX_LINES (default 120) lines, signature to closing brace.

Functions are found by the layout every file follows (style.md): a definition's body opens
with "{" in column 0 and closes with "}" in column 0; its signature is the lines above the
"{" back to a blank line, a comment or a preprocessor line. Tables are data, not functions.
Exit 1 with one line per function over the limit.
"""
import glob
import os
import re
import sys

from check_layers import report


def functions(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("{") and i > 0:
            j = i - 1
            while j > 0 and lines[j - 1].strip() and not lines[j - 1].startswith(("}", "/*", " *", "#")) \
                    and not lines[j - 1].rstrip().endswith((";", "*/")):
                j -= 1
            k = i
            while k < len(lines) and not lines[k].startswith("}"):
                k += 1
            m = re.search(r"([A-Za-z_]\w*)\s*\(", " ".join(lines[j:i]))
            yield (m.group(1) if m else "?"), j + 1, k - j + 1
            i = k
        i += 1


def main():
    src = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 120
    files = sorted(glob.glob(os.path.join(src, "src", "*", "*.c")) + glob.glob(os.path.join(src, "src", "*", "*.cpp")) +
                   glob.glob(os.path.join(src, "cli", "*.c")))
    bad, count = [], 0
    for f in files:
        for name, line, n in functions(f):
            count += 1
            if n > limit:
                bad.append("%s:%d: %s has %d lines (limit %d)" % (os.path.relpath(f, src), line, name, n, limit))
    return report(bad, "%d functions in %d files, none over %d lines" % (count, len(files), limit))


if __name__ == "__main__":
    sys.exit(main())
