#!/usr/bin/env python3
"""No function in lib/ or dialects/ runs past 150 lines (STYLE.md: a long
function is cut into named steps). Lambdas count inside the function that
holds them.

Reads the C++ files with a small brace matcher: comments and string / char
literals are blanked, then every brace block opened at namespace or class
scope whose header has a parameter list is a function, spanning from its
header's first line to its closing brace.

Usage: scripts/check-function-length.py [--limit N] [--list N] [paths...]
  --list N   print every function of at least N lines (largest first) and
             exit 0 (for reviews)
"""
import argparse
import os
import re
import sys

CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|do|else|return)\b")


def blank(text):
    """The text with comments and literals replaced by spaces (newlines
    kept, so line numbers hold)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (
                i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = ")" + m.group(1) + '"'
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            # A digit separator (1'000) is not a literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n \
                    and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    """(name, first line, last line) of each function defined at namespace
    or class scope in `path`."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = blank(f.read())
    # Preprocessor lines carry no blocks.
    text = re.sub(r"(?m)^[ \t]*#.*$", lambda m: " " * len(m.group(0)), text)
    result = []
    stack = []  # (kind, name, first line)
    header_start = 0
    line = 1
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
        elif c in ";{}":
            if c == "{":
                header = text[header_start:i]
                outer = not stack or stack[-1][0] in ("namespace", "class")
                kind = "block"
                name = ""
                flat = " ".join(header.split())
                if outer:
                    if re.search(r"\bnamespace\b", flat) or \
                            re.search(r'\bextern\s*$', flat):
                        kind = "namespace"
                    elif re.search(r"\b(class|struct|union|enum)\b[^()]*$",
                                   flat) and "=" not in flat:
                        kind = "class"
                    elif ")" in flat and not CONTROL.match(flat) and \
                            not flat.rstrip().endswith("="):
                        kind = "function"
                        m = re.search(r"([~\w:<>,\s*&]*?)\s*\(", flat)
                        name = m.group(1).split()[-1] if m and \
                            m.group(1).split() else flat[:40]
                # The header's first non-blank line.
                lead = header[:len(header) - len(header.lstrip())]
                first = line - header.count("\n") + lead.count("\n")
                stack.append((kind, name, first))
            elif c == "}" and stack:
                kind, name, first = stack.pop()
                if kind == "function":
                    result.append((name, first, line))
            header_start = i + 1
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=150)
    parser.add_argument("--list", type=int, default=0)
    parser.add_argument("paths", nargs="*", default=["lib", "dialects"])
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    found = []
    for top in args.paths:
        top = os.path.join(root, top)
        for dirpath, _, names in os.walk(top):
            for name in sorted(names):
                if name.endswith((".cpp", ".h", ".inc")):
                    path = os.path.join(dirpath, name)
                    for fn, first, last in functions(path):
                        found.append((last - first + 1,
                                      os.path.relpath(path, root), first, fn))
    found.sort(key=lambda f: (-f[0], f[1], f[2]))
    if args.list:
        for size, path, first, fn in found:
            if size >= args.list:
                print(f"{size:5d}  {path}:{first}  {fn}")
        return 0
    long = [f for f in found if f[0] > args.limit]
    if long:
        print(f"check-function-length: {len(long)} functions over "
              f"{args.limit} lines (cut them into named steps):",
              file=sys.stderr)
        for size, path, first, fn in long:
            print(f"  {path}:{first}: {fn} is {size} lines", file=sys.stderr)
        return 1
    print(f"check-function-length: {len(found)} functions, none over "
          f"{args.limit} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
