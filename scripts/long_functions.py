#!/usr/bin/env python3
"""Lists the functions of Sling's production code by length, longest first.

A function's length is the count of lines from the first line of its declaration (its template line
included) to its closing brace. With --max N, exits 1 when a function outside ALLOWED is longer than
N lines, so that ctest (the LongFunctions test) keeps the rule "a function does one step".

The scan counts braces in the source after removing comments, string and character literals and
preprocessor lines: a brace whose declaration has a parameter list opens a function, and everything
inside it (lambdas, local classes) belongs to that function. It needs no compiler, so the test runs
in well under a second.
"""

import argparse
import bisect
import pathlib
import re
import sys

# The layers of production code (docs/architecture.md); tests/, bench/ and fuzz/ are not scanned.
PRODUCTION_DIRS = ("engine", "solvers", "search", "agents", "experiments", "play", "cli", "python")
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc")
# Folders inside the production layers that hold tests, not production code.
SKIPPED_PARTS = {"tests"}

# Functions allowed to exceed --max until they are split: "path:name" (name as this script prints
# it). Split one, and take it off this list.
ALLOWED = {
    "python/bind_duel.cpp:bind_duel",
    "python/bind_pig.cpp:bind_pig",
    "solvers/duel/movement_discs.h:discs",  # the solver's hot loop: split only with a benchmark
    "solvers/duel/passes.cpp:run_pass",
    "solvers/duel/solve.cpp:solve_duel",
    "solvers/best_response/best_response.h:best_response",
    "engine/danelaw/policy.cpp:DanelawGame::heuristic_action",
    "play/duel_view.cpp:board",
    "play/web/server.cpp:routes",
}

# How a lambda's declarator ends before its body: `[captures](parameters) mutable -> type`.
LAMBDA_END = re.compile(r"\]\s*(\((?:[^()]|\([^()]*\))*\))?\s*(mutable|constexpr|noexcept|\s)*(->[^{}]*)?$")
CONTAINER_KEYWORDS = re.compile(r"\b(namespace|class|struct|union|enum|extern)\b")


# What strip_code blanks: comments, raw strings, strings, character literals (a quote after a
# letter or digit is a digit separator, 1'000) and preprocessor lines with their continuations.
NOT_CODE = re.compile(
    r"""//[^\n]*
    | /\*.*?\*/
    | \b(?:u8|u|U|L)?R"(?P<delimiter>[^(\s]*)\(.*?\)(?P=delimiter)"
    | (?:\b(?:u8|u|U|L))?"(?:\\.|[^"\\\n])*"
    | (?<![\w'])'(?:\\.|[^'\\\n])+'
    | ^[ \t]*\#(?:\\\n|[^\n])*""", re.S | re.M | re.X)


def strip_code(text):
    """Returns text with comments, literals and preprocessor lines blanked; newlines are kept."""
    return NOT_CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)


def function_name(header):
    """The qualified name declared by a function header (for the listing only)."""
    depth_paren = depth_angle = 0
    for match in re.finditer(r"[()<>]", header):
        ch = match.group()
        before = header[:match.start()].rstrip()
        if ch == "(":
            if depth_paren == 0 and depth_angle == 0:
                name = re.search(r"((?:[A-Za-z_~][\w]*\s*::\s*)*(?:operator\s*\S+?|[A-Za-z_~]\w*))\s*$",
                                 before)
                if name and name.group(1).split("::")[-1].strip() not in (
                        "template", "requires", "decltype", "noexcept", "alignas", "__attribute__"):
                    return re.sub(r"\s+", "", name.group(1))
                if before.endswith("]"):
                    return "(lambda)"
            depth_paren += 1
        elif ch == ")":
            depth_paren -= 1
        elif depth_paren == 0 and not before.endswith("operator"):
            depth_angle += 1 if ch == "<" else -1 if depth_angle > 0 else 0
    return "(unnamed)"


def functions(path):
    """Yields (name, first line, last line) for every function defined in the file at path."""
    code = strip_code(path.read_text(encoding="utf-8"))
    newlines = [m.start() for m in re.finditer("\n", code)]

    def line_of(index):
        return bisect.bisect_left(newlines, index) + 1

    # Each open brace: "container" (namespace, class, enum...), "init" (a brace initialiser outside a
    # function), "inner" (any brace inside a function) or ("function", name, first line).
    stack = []
    functions_open = 0
    header_start = 0
    for match in re.finditer(r"[{};]", code):
        ch, index = match.group(), match.start()
        inside_function = functions_open > 0
        if ch == ";" and not inside_function and not (stack and stack[-1] == "init"):
            header_start = index + 1
        elif ch == "{":
            if inside_function:
                stack.append("inner")
                continue
            header = code[header_start:index]
            stripped = header.strip()
            body_header = re.sub(r"\s+", " ", stripped)
            # A member initialiser's braces (`Foo() : a_{1} {`) or a default member initialiser.
            initialiser = re.search(r"\)\s*(noexcept\s*)?:(?!:)", body_header) and re.search(
                r"[\w>]$", body_header) and not re.search(r"\)\s*$", body_header)
            unclosed_parenthesis = body_header.count("(") > body_header.count(")")
            if stack and stack[-1] == "init":
                stack.append("init")
            elif unclosed_parenthesis and LAMBDA_END.search(body_header):
                # A lambda passed to a constructor at namespace scope (a command's registration).
                first = header_start + (len(header) - len(header.lstrip()))
                stack.append(("function", function_name(body_header), line_of(first)))
                functions_open += 1
            elif unclosed_parenthesis:
                # A brace inside a declaration's parentheses: a default argument, an argument.
                stack.append("init")
            elif CONTAINER_KEYWORDS.match(re.sub(r"^template\s*<.*?>\s*", "", body_header)):
                stack.append("container")
                header_start = index + 1
            elif "(" in stripped and not initialiser and not re.search(r"\bconcept\b", body_header):
                first = header_start + (len(header) - len(header.lstrip()))
                stack.append(("function", function_name(body_header), line_of(first)))
                functions_open += 1
            elif stripped:
                stack.append("init")
            else:
                stack.append("container")
                header_start = index + 1
        elif ch == "}":
            if not stack:
                continue
            top = stack.pop()
            if isinstance(top, tuple):
                functions_open -= 1
                yield top[1], top[2], line_of(index)
                header_start = index + 1
            elif top == "container":
                header_start = index + 1


def scan(root):
    """Returns [(length, relative path, name, first line)] for every production function."""
    found = []
    for folder in PRODUCTION_DIRS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in SOURCE_SUFFIXES or SKIPPED_PARTS & set(path.relative_to(root).parts):
                continue
            relative = path.relative_to(root).as_posix()
            for name, first, last in functions(path):
                found.append((last - first + 1, relative, name, first))
    found.sort(key=lambda f: (-f[0], f[1], f[3]))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=pathlib.Path,
                        default=pathlib.Path(__file__).resolve().parent.parent)
    parser.add_argument("--min", type=int, default=80, help="list functions of at least this length")
    parser.add_argument("--max", type=int, help="fail when a function not allowed is longer")
    args = parser.parse_args()
    found = scan(args.root)
    too_long = []
    for length, relative, name, first in found:
        if length >= args.min:
            print(f"{length:5d}  {relative}:{first}  {name}")
        if args.max is not None and length > args.max and f"{relative}:{name}" not in ALLOWED:
            too_long.append(f"{relative}:{first} {name} ({length} lines)")
    if args.max is not None:
        still_long = {f"{relative}:{name}" for length, relative, name, _ in found if length > args.max}
        for entry in sorted(ALLOWED - still_long):
            too_long.append(f"{entry} is within {args.max} lines now: take it off ALLOWED")
    if too_long:
        print(f"\nover {args.max} lines (split each where a name would explain a step), or allowed "
              "for no reason:", file=sys.stderr)
        for entry in too_long:
            print("  " + entry, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
